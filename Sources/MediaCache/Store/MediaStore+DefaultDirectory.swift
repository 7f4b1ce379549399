import Foundation

extension MediaStore {
    /// Where MediaCache keeps its cache when no directory is given: `$XDG_CACHE_HOME/mediacache`
    /// (or `~/.cache/mediacache`) on Linux, `Library/Caches/mediacache` on Apple platforms.
    public static var defaultDirectory: String {
        #if canImport(Darwin)
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("mediacache").path
        #else
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return xdg + "/mediacache"
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.cache/mediacache"
        #endif
    }
}

import Foundation
import MediaCache

/// Where an app's cache lives. On Apple platforms the store, its index and offline downloads,
/// sits in Application Support, which iOS never purges, excluded from backup; the bytes cached
/// for playback sit in `Library/Caches`, which iOS may empty under storage pressure. A store
/// from before, all in `Library/Caches/mediacache`, moves over when it opens
/// (``MediaStore/Configuration/purgeableDirectory``). Elsewhere, everything in
/// ``MediaStore/defaultDirectory``.
enum AppStorage {
    /// The store's directory.
    static var directory: String {
        #if canImport(Darwin)
        let support =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return support.appendingPathComponent("mediacache").path
        #else
        return MediaStore.defaultDirectory
        #endif
    }

    /// `configuration` for a store in `directory`: in the default directory on Apple
    /// platforms, with `Library/Caches/mediacache` (the former directory) as its purgeable
    /// folder unless it names one.
    static func store(_ configuration: MediaStore.Configuration, in directory: String) -> MediaStore.Configuration {
        #if canImport(Darwin)
        guard configuration.purgeableDirectory == nil, directory == self.directory else { return configuration }
        var configuration = configuration
        configuration.purgeableDirectory = MediaStore.defaultDirectory
        return configuration
        #else
        configuration
        #endif
    }

    /// Keeps `directory` out of the device's backups, where an app's offline downloads do not
    /// belong (Apple's guidance for files an app can download again).
    static func excludeFromBackup(_ directory: String) {
        #if canImport(Darwin)
        var url = URL(fileURLWithPath: directory)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try? url.setResourceValues(values)
        #endif
    }
}

import Foundation

/// Third-party tools that end-to-end tests run (curl, ffmpeg, chromium).
public enum Tools {
    /// A tool the tests need is not installed. End-to-end tests fail with this rather than skip.
    public struct Missing: Error, CustomStringConvertible {
        /// The tool's name.
        public var name: String

        public var description: String {
            "\(name) is not installed; scripts/test installs it (apt-get install \(name))"
        }
    }

    /// The path of `name` on `PATH`.
    ///
    /// - Throws: ``Missing`` when it is not installed.
    public static func require(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(name: name)
    }
}

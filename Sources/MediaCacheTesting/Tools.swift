import Foundation

/// Third-party tools that end-to-end tests run (curl, ffmpeg, chromium).
package enum Tools {
    /// A tool the tests need is not installed. End-to-end tests fail with this rather than skip.
    package struct Missing: Error, CustomStringConvertible {
        /// The tool's name.
        package var name: String

        package var description: String {
            "\(name) is not installed; scripts/test installs it (apt-get install \(name))"
        }
    }

    /// The path of `name` on `PATH`.
    ///
    /// - Throws: ``Missing`` when it is not installed.
    package static func require(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(name: name)
    }
}

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

    /// Video.js 7 with its HLS engine (VHS), from PyPI's `js.videojs`, as a page serves it.
    ///
    /// - Throws: ``Missing`` when the package is not installed.
    package static func videoJS() async throws -> Data {
        let python = try require("python3")
        let find = try await CommandRun.run(path: python, ["-c", "import js.videojs, os; print(os.path.dirname(js.videojs.__file__))"])
        let directory = find.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard find.status == 0, let script = FileManager.default.contents(atPath: directory + "/resources/video.js") else {
            throw Missing(name: "js.videojs (pip install js.videojs)")
        }
        return script
    }
}

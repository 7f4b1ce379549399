import Foundation

/// A directory of its own for one test, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a new, empty directory under the system's temporary directory.
    public init(prefix: String = "mediacache-test") throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    /// The path of `name` inside the directory.
    public func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Where the package's executables are built, next to the running test bundle.
package enum BuiltProducts {
    /// The URL of the executable `name` built alongside the tests.
    package static func executable(named name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// On Apple platforms the tests are a `.xctest` bundle inside the products folder; on
    /// Linux they are an executable there.
    private static var directory: URL {
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent()
    }
}

import Foundation

/// The result of running one of the package's executables.
public struct CommandRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to standard output.
    public var output: String
    /// Everything written to standard error.
    public var errorOutput: String

    /// Runs the built executable `name` with `arguments` to completion. (It polls for the exit:
    /// `waitUntilExit()` can hang when called from a task on Linux.)
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandRun {
        try run(url: BuiltProducts.executable(named: name), arguments, environment: environment)
    }

    /// Runs the executable at `path`, such as a tool found with ``Tools/require(_:)``.
    public static func run(path: String, _ arguments: [String]) throws -> CommandRun {
        try run(url: URL(fileURLWithPath: path), arguments, environment: nil)
    }

    /// Runs the executable at `path` on a thread of its own, so that a task waiting for it never
    /// holds one of the few cooperative threads that an in-process server needs to answer it.
    public static func run(path: String, _ arguments: [String]) async throws -> CommandRun {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(url: URL(fileURLWithPath: path), arguments, environment: nil) })
            }
        }
    }

    private static func run(url: URL, _ arguments: [String], environment: [String: String]?) throws -> CommandRun {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
        while process.isRunning { usleep(1_000) }
        return CommandRun(status: process.terminationStatus,
                          output: String(decoding: outputData, as: UTF8.self),
                          errorOutput: String(decoding: errorData, as: UTF8.self))
    }
}

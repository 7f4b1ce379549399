import Foundation

/// The result of running one of the package's executables.
public struct CommandRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to standard output.
    public var output: String
    /// Everything written to standard error.
    public var errorOutput: String

    /// Runs the built executable `name` with `arguments` to completion.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandRun {
        let process = Process()
        process.executableURL = BuiltProducts.executable(named: name)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandRun(status: process.terminationStatus,
                          output: String(decoding: outputData, as: UTF8.self),
                          errorOutput: String(decoding: errorData, as: UTF8.self))
    }
}

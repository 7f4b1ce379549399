import Foundation
import MediaCacheTesting
import Testing

/// A `mediacache serve --port 0` process of the test's own, with the root URL it announced.
struct ServeProcess {
    let process: Process
    let output: Pipe
    /// The root URL the server printed, such as `http://127.0.0.1:41234/`.
    let root: String
    /// Everything the server printed before it announced its root.
    let banner: String

    /// Starts the server and waits until it prints its status page URL.
    static func start(directory: String, _ arguments: [String] = []) throws -> ServeProcess {
        let process = Process()
        let output = Pipe()
        process.executableURL = BuiltProducts.executable(named: "mediacache")
        process.arguments = ["serve", "--port", "0", "--cache-dir", directory] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var banner = ""
        while !banner.contains("status page"), process.isRunning {
            banner += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        let root = try #require(banner.firstMatch(of: /status page (\S+)/).map { String($0.1) }, "\(banner)")
        return ServeProcess(process: process, output: output, root: root, banner: banner)
    }

    /// Sends SIGINT and returns the exit status and what the server printed after its banner.
    func stop() -> (status: Int32, output: String) {
        process.interrupt()
        while process.isRunning { usleep(10_000) }
        return (process.terminationStatus,
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// Ends the process at once, for clean-up after a failure.
    func terminate() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}

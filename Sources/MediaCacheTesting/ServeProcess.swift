import Foundation

/// A `mediacache serve --port 0` process of a test's or benchmark's own, with the root URL it
/// announced.
///
/// ```swift
/// let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: dir)
/// defer { server.terminate() }
/// // … curl server.root + "http/127.0.0.1:8081/a.mp4" …
/// let (status, output) = server.stop()
/// ```
package struct ServeProcess: Sendable {
    private let process: ChildProcess
    /// The root URL the server printed, such as `http://127.0.0.1:41234/`.
    package let root: String
    /// Everything the server printed up to its status page URL.
    package let banner: String

    /// Starts `executable serve --port 0 --cache-dir cacheDirectory arguments…` and waits until
    /// it prints its status page URL; `environment` replaces the variables named in it.
    package static func start(
        _ executable: URL, cacheDirectory: String, _ arguments: [String] = [],
        environment: [String: String] = [:]
    ) throws -> ServeProcess {
        let process = try ChildProcess.spawn(
            path: executable.path, ["serve", "--port", "0", "--cache-dir", cacheDirectory] + arguments,
            environment: environment, capturingOutput: true)
        var banner = ""
        while !banner.contains("status page") {
            let chunk = process.readAvailable()
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard let root = banner.firstMatch(of: /status page (\S+)/).map({ String($0.1) }) else {
            process.send(SIGKILL)
            process.waitForExit()
            throw ServeProcessError(banner: banner)
        }
        return ServeProcess(process: process, root: root, banner: banner)
    }

    /// The server's process id.
    package var pid: pid_t { process.pid }

    /// The server's peak resident memory so far (`VmHWM`) and its memory now (`VmRSS`), in bytes.
    package func memory() throws -> (peak: Int64, now: Int64) {
        let status = try String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)
        func field(_ name: String) -> Int64 {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
            return (line?.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? 0) * 1024
        }
        return (field("VmHWM"), field("VmRSS"))
    }

    /// Sends SIGINT, waits for the exit (SIGKILL after ten seconds) and returns the exit status
    /// and what the server printed after its banner.
    @discardableResult
    package func stop() -> (status: Int32, output: String) {
        process.send(SIGINT)
        for _ in 0..<1_000 where process.isRunning { usleep(10_000) }
        terminate()
        let status = process.waitForExit()
        return (status, String(decoding: process.readToEnd(), as: UTF8.self))
    }

    /// Sends `signal` (such as `SIGINT` or `SIGTERM`) to the server.
    package func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits up to `seconds` for the server to exit; returns its status and what it printed
    /// after its banner, or `nil` while it still runs.
    package func waitForExit(seconds: Double) -> (status: Int32, output: String)? {
        for _ in 0..<Int(seconds * 100) where process.isRunning { usleep(10_000) }
        guard !process.isRunning else { return nil }
        return (process.waitForExit(), String(decoding: process.readToEnd(), as: UTF8.self))
    }

    /// Ends the process at once, for clean-up after a failure.
    package func terminate() {
        process.send(SIGKILL)
    }
}

/// `mediacache serve` exited or printed no status page URL.
package struct ServeProcessError: Error, CustomStringConvertible {
    /// What it printed.
    package var banner: String

    package var description: String { "mediacache serve did not start; it printed: \(banner)" }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A process started with `posix_spawn` that runs alongside the test: its standard output
/// read as it comes (or discarded), signals, and its exit. `Foundation.Process` is avoided for
/// the reason ``CommandRun`` gives.
///
/// ```swift
/// let child = try ChildProcess.spawn(path: writer, ["/tmp/cache"], capturingOutput: true)
/// let ready = child.readAvailable()
/// child.send(SIGKILL)
/// let status = child.waitForExit()      // 128 + 9
/// ```
package final class ChildProcess: @unchecked Sendable {
    // @unchecked: the pid and the pipe are immutable; the exit status is guarded by `exited`.

    /// The process id.
    package let pid: pid_t
    private let output: OutputPipe?
    private let exited = NSCondition()
    private var exitStatus: Int32?

    /// Reaps the process the moment it exits, on a thread of its own: a zombie left for later
    /// would stall Swift Testing's exit tests, whose wait for their own child spins while any
    /// other child of the test process is a zombie.
    private init(pid: pid_t, output: OutputPipe?) {
        self.pid = pid
        self.output = output
        Thread.detachNewThread { [exited] in
            let code = CommandRun.waitForExit(of: pid)
            exited.withLock {
                self.exitStatus = code
                exited.broadcast()
            }
        }
    }

    /// Starts the executable at `path` with `arguments`; its standard output is kept for
    /// ``readAvailable()`` with `capturingOutput`, its standard error with `capturingErrors`
    /// (both in one stream when both are given), else each is discarded. `environment`
    /// replaces the variables named in it.
    package static func spawn(
        path: String, _ arguments: [String], environment: [String: String] = [:],
        capturingOutput: Bool, capturingErrors: Bool = false
    ) throws -> ChildProcess {
        let output = capturingOutput || capturingErrors ? try OutputPipe() : nil
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, isCaptured) in [(Int32(1), capturingOutput), (Int32(2), capturingErrors)] {
            if let output, isCaptured {
                posix_spawn_file_actions_adddup2(&actions, output.writeEnd, descriptor)
            } else {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            }
        }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let spawned = CommandRun.spawn(&pid, path, arguments, actions: &actions, environment: variables)
        output?.closeWrite()
        guard spawned == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [
                    NSFilePathErrorKey: path,
                    NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO),
                ])
        }
        return ChildProcess(pid: pid, output: output)
    }

    /// Whether the process still runs.
    package var isRunning: Bool {
        exited.withLock { exitStatus == nil }
    }

    /// Sends `signal` unless the process has exited.
    package func send(_ signal: Int32) {
        exited.withLock { if exitStatus == nil { kill(pid, signal) } }
    }

    /// Waits for the process to exit; its status, 128 + the signal for one a signal ended.
    @discardableResult
    package func waitForExit() -> Int32 {
        exited.withLock {
            while exitStatus == nil { exited.wait() }
            return exitStatus ?? -1
        }
    }

    /// What the process has written since the last read, waiting for some; empty once its
    /// output has ended (or when it is not captured).
    package func readAvailable() -> Data {
        guard let output else { return Data() }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output.readEnd, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count == 0 || errno != EINTR { return Data() }
        }
    }

    /// Everything the process writes until its output ends.
    package func readToEnd() -> Data {
        var data = Data()
        while true {
            let chunk = readAvailable()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }
}

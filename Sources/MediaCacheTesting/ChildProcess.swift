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
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: the pid is immutable; the exit status and the pipe are guarded by `lock`.

    /// The process id.
    public let pid: pid_t
    private let output: OutputPipe?
    private let lock = NSLock()
    private var exitStatus: Int32?

    private init(pid: pid_t, output: OutputPipe?) {
        self.pid = pid
        self.output = output
    }

    /// Starts the executable at `path` with `arguments`; its standard output is kept for
    /// ``readAvailable()`` with `capturingOutput`, else discarded, and its standard error is
    /// discarded. `environment` replaces the variables named in it.
    public static func spawn(path: String, _ arguments: [String], environment: [String: String] = [:],
                             capturingOutput: Bool) throws -> ChildProcess {
        let output = capturingOutput ? try OutputPipe() : nil
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let spawned = CommandRun.withCStrings([path] + arguments) { argv in
            CommandRun.withCStrings(variables) { envp in posix_spawn(&pid, path, &actions, nil, argv, envp) }
        }
        output?.closeWrite()
        guard spawned == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: path,
                                                        NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)])
        }
        return ChildProcess(pid: pid, output: output)
    }

    /// Whether the process still runs.
    public var isRunning: Bool {
        lock.withLock { reap(blocking: false) == nil }
    }

    /// Sends `signal` unless the process has exited.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the process to exit; its status, 128 + the signal for one a signal ended.
    @discardableResult
    public func waitForExit() -> Int32 {
        lock.withLock { reap(blocking: true) ?? -1 }
    }

    /// What the process has written since the last read, waiting for some; empty once its
    /// output has ended (or when it is not captured).
    public func readAvailable() -> Data {
        guard let output else { return Data() }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output.readEnd, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count == 0 || errno != EINTR { return Data() }
        }
    }

    /// Everything the process writes until its output ends.
    public func readToEnd() -> Data {
        var data = Data()
        while true {
            let chunk = readAvailable()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }

    /// The exit status once known; the caller holds `lock`.
    private func reap(blocking: Bool) -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return exitStatus
    }
}

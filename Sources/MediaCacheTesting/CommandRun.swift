import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The result of running one of the package's executables, or a tool.
///
/// Processes are started with `posix_spawn`, not `Foundation.Process`: on Linux,
/// swift-corelibs-foundation's `Process.run()` (Swift 6.3.1) over-reads a directory entry while
/// it scans `/proc/self/fd` and crashes now and then in a test run that holds many descriptors
/// and spawns many processes (fixed upstream in swift-corelibs-foundation#5472).
package struct CommandRun: Sendable {
    /// The exit status; 128 + the signal for a process a signal ended.
    package var status: Int32
    /// Everything written to standard output.
    package var output: String
    /// Everything written to standard error.
    package var errorOutput: String

    /// Runs the built executable `name` with `arguments` to completion; `environment` replaces
    /// the whole environment when given.
    package static func run(_ name: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandRun {
        try run(path: BuiltProducts.executable(named: name).path, arguments, environment: environment)
    }

    /// Runs the executable at `path`, such as a tool found with ``Tools/require(_:)``.
    package static func run(path: String, _ arguments: [String]) throws -> CommandRun {
        try run(path: path, arguments, environment: nil)
    }

    /// Runs the executable at `path` on a thread of its own, so that a task waiting for it never
    /// holds one of the few cooperative threads that an in-process server needs to answer it.
    package static func run(path: String, _ arguments: [String]) async throws -> CommandRun {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(path: path, arguments, environment: nil) })
            }
        }
    }

    private static func run(path: String, _ arguments: [String], environment: [String: String]?) throws -> CommandRun {
        let output = try OutputPipe()
        let errors = try OutputPipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.writeEnd, 2)
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let spawned = spawn(&pid, path, arguments, actions: &actions, environment: variables)
        output.closeWrite()
        errors.closeWrite()
        guard spawned == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [
                    NSFilePathErrorKey: path,
                    NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO),
                ])
        }
        let (out, err) = OutputPipe.readBoth(output, errors)
        let exit = waitForExit(of: pid)
        return CommandRun(status: exit, output: String(decoding: out, as: UTF8.self), errorOutput: String(decoding: err, as: UTF8.self))
    }

    /// Waits for child `pid` to exit and reaps it; its status, 128 + the signal for one a signal
    /// ended, -1 when it cannot be waited for.
    static func waitForExit(of pid: pid_t) -> Int32 {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
        guard result == pid else { return -1 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// `posix_spawn` with only standard input, output and error inherited: the test process
    /// holds sockets (SwiftNIO opens them without close-on-exec) and pipes of other children,
    /// and a child that inherits one keeps it open after its owner closes it; a client then
    /// waits for a connection's end, or a reader for a pipe's, until that child exits.
    /// `actions` must set up descriptors 0, 1 and 2.
    static func spawn(
        _ pid: inout pid_t, _ path: String, _ arguments: [String],
        actions: inout posix_spawn_file_actions_t, environment: [String]
    ) -> Int32 {
        #if canImport(Darwin)
        var attributes = posix_spawnattr_t(nil as OpaquePointer?)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        return withCStrings([path] + arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        }
        #else
        // glibc 2.34 and later; Swift's Glibc module does not declare it.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        return withCStrings([path] + arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, path, &actions, nil, argv, envp) }
        }
        #endif
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

/// A pipe whose read end the parent keeps and whose write end the child gets (`dup2` onto its
/// standard output or error); both ends are close-on-exec, so that other children do not keep it
/// open and the reader sees the end of the output.
final class OutputPipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func closeWrite() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    deinit {
        close(readEnd)
        closeWrite()
    }

    /// Everything both pipes deliver until each ends, read as it comes so that neither fills.
    static func readBoth(_ first: OutputPipe, _ second: OutputPipe) -> (Data, Data) {
        var data = [Data(), Data()]
        var descriptors = [
            pollfd(fd: first.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: second.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while descriptors.contains(where: { $0.fd >= 0 }) {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { break }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    data[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    descriptors[index].fd = -1
                }
            }
        }
        return (data[0], data[1])
    }
}

import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The congestion control of a connection whose client runs on this machine (a player on
/// loopback): Reno on Linux, whatever the system's default.
///
/// Loopback has no link to share and no queue to overflow, so congestion control has nothing
/// to do there. BBR, the default on many servers and cloud images, paces every socket's sends
/// all the same, with a timer per socket where no queueing discipline paces (loopback has
/// none). On this project's 2-core Linux machine, where BBR is the default, 64 connections
/// reading 256 MiB hits ran at 2,950 MiB/s under Reno against 2,171 under BBR (nginx, under
/// BBR: 2,330), and the client spent 586 ms of CPU per GiB against 834, the server 79 against
/// 107. With both servers under Reno system-wide they were level (BENCHMARKS.md, "Pacing on
/// loopback"). Reno does not pace, every Linux kernel has it, and every process may choose it
/// (`tcp_allowed_congestion_control` lists it unless an administrator took it out).
///
/// Remote clients keep the system's algorithm, which their link needs. A refusal leaves the
/// system's choice: the algorithm saves CPU, it is never a condition. Other platforms keep their
/// own.
///
/// A listener on a loopback address has local clients only. It takes Reno itself, and Linux
/// gives each connection it accepts its listener's algorithm, so that no connection costs a
/// system call of its own for it (``applyToListener(_:)``; the kernel allows an algorithm to a
/// listener exactly when it would allow it to each connection). A listener on any other
/// address leaves the choice to each connection, by its client's address (``apply(to:)``).
enum LocalClientCongestionControl {
    /// Gives `channel`, an accepted connection, Reno if its client is on this machine. Call
    /// before its first byte is sent, on its event loop.
    static func apply(to channel: any Channel) {
        guard channel.remoteAddress.map(LoopbackAddress.isLoopback) == true else { return }
        setReno(on: channel)
    }

    /// Gives `channel`, a listening socket whose every client is on this machine, Reno, which
    /// the connections it accepts inherit. Call before it accepts its first connection.
    static func applyToListener(_ channel: any Channel) {
        setReno(on: channel)
    }

    private static func setReno(on channel: any Channel) {
        #if os(Linux)
        guard let socket = channel as? any SocketOptionProvider else { return }
        // The kernel reads the name up to the option's length; it needs no terminator.
        let reno = (UInt8(ascii: "r"), UInt8(ascii: "e"), UInt8(ascii: "n"), UInt8(ascii: "o"))
        _ = socket.unsafeSetSocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_CONGESTION), value: reno)
        #endif
    }
}

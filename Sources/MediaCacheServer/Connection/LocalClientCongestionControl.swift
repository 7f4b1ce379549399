import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The congestion control of a connection whose client runs on this machine (a player on
/// loopback): Reno on Linux, whatever the system's default, from the connection's start.
///
/// Loopback has no link to share and no queue to overflow, so congestion control has nothing
/// to do there. BBR, the default on many servers and cloud images, paces every socket's sends
/// all the same, with a timer per socket where no queueing discipline paces (loopback has
/// none). Reno does not pace, every Linux kernel has it, and every process may choose it
/// (`tcp_allowed_congestion_control` lists it unless an administrator took it out). With both
/// servers under Reno system-wide, ours and nginx served hits level (BENCHMARKS.md, "Pacing on
/// loopback").
///
/// **From the start.** Linux starts an accepted connection's algorithm before `accept`
/// returns it, and BBR's start marks the socket as one TCP paces itself. Nothing clears that
/// mark when the algorithm changes later: a connection switched to Reno after it was accepted
/// is still paced. A connection that inherits Reno from its listener never is. On this
/// project's 2-core Linux machine, where BBR is the default, 8 connections reading 8 MiB hits
/// ran at 4.9–5.4 GB/s with Reno from the listener against 2.9–3.1 GB/s with Reno set on
/// each connection (nginx, under BBR: 2.4 GB/s; BENCHMARKS.md, "Reno from the start").
///
/// So a listener on a loopback address, whose clients are all local, takes Reno itself
/// (``applyToListener(_:)``), and its connections skip the call of their own. A listener on
/// any other address chooses per connection, by the client's address (``apply(to:)``): a
/// local client of such a listener gets Reno once accepted, still paced where the system's
/// algorithm paces.
///
/// Remote clients keep the system's algorithm, which their link needs. A refusal leaves the
/// system's choice: the algorithm saves CPU, it is never a condition (the kernel allows an
/// algorithm to a listener exactly when it would allow it to each connection). Other platforms
/// keep their own.
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

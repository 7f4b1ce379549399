import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The congestion control of a connection whose client runs on this machine (a player on
/// loopback): Reno on Linux, whatever the system's default, from the connection's start.
///
/// Loopback has no link to share and no queue to overflow, so congestion control has nothing
/// to do there. BBR, the default on many servers, paces every socket's sends all the same, with
/// a timer per socket; Reno does not pace, and every Linux kernel lets every process choose it.
///
/// **From the start.** Linux starts an accepted connection's algorithm before `accept` returns
/// it, and BBR's start marks the socket as paced for good: a connection switched to Reno later
/// is still paced, one that inherits Reno from its listener never is. So a listener on a
/// loopback address takes Reno itself (``applyToListener(_:)``); a listener on any other
/// address chooses per connection, by the client's address (``apply(to:)``).
///
/// Remote clients keep the system's algorithm, which their link needs. A refusal leaves the
/// system's choice: the algorithm saves CPU, it is never a condition. Other platforms keep
/// their own.
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

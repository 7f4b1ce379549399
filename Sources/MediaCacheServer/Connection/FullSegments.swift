import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Holds a connection's partly filled TCP segments back while it sends spans of the data file
/// (`TCP_CORK`, on Linux), so that those spans leave in whole segments, and lets the last one
/// go once the last span is written. nginx's `tcp_nopush` does the same for its `sendfile`.
///
/// Linux's `sendfile` hands TCP a span in rounds of at most 16 page-cache folios, and a round
/// that finds the client's window open leaves at once, its last segment partly filled; every
/// segment costs both ends a wake-up. The head of a response the cache answers at once is
/// written, unflushed, before its span, so it leaves in the span's first segment. Nothing is
/// held while no span is being written: a miss's bytes leave as they come. A refusal leaves
/// the socket as it was: the cork saves CPU, it is never a condition. Other platforms keep
/// their own segmenting.
struct FullSegments {
    /// Spans queued on the connection and not yet written or failed.
    private var spansInFlight = 0

    #if os(Linux)
    private static let option = ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_CORK))
    #endif

    /// A span is about to be written on `channel`: holds partial segments back from the first.
    mutating func spanStarts(on channel: any Channel) {
        spansInFlight += 1
        if spansInFlight == 1 { Self.set(true, on: channel) }
    }

    /// A span was written or failed: lets the last partial segment go after the last one.
    mutating func spanEnded(on channel: any Channel) {
        spansInFlight -= 1
        if spansInFlight == 0 { Self.set(false, on: channel) }
    }

    private static func set(_ isOn: Bool, on channel: any Channel) {
        #if os(Linux)
        _ = try? channel.syncOptions?.setOption(option, value: isOn ? 1 : 0)
        #endif
    }
}

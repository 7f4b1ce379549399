import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Holds a connection's partly filled TCP segments back while it sends spans of the data file
/// (`TCP_CORK`, on Linux), so that those spans leave in whole segments, and lets the last one
/// go once the last span is written. nginx's `tcp_nopush` does the same for its `sendfile`.
///
/// Linux's `sendfile` moves a span through a pipe in rounds of at most 16 page-cache folios
/// (64 KiB where the span sits in 4 KiB pages), and hands TCP each round on its own. A round
/// that finds the client's window open leaves at once, its last segment only partly filled.
/// On loopback, whose segments hold 65,483 bytes, one 8 MiB hit read by curl left in 100 whole
/// segments and 58 partial ones (34 of 47,616 bytes and 4 of 17,920 among them, and the
/// response head alone); with the cork, in 125 whole ones and 5 others. Each segment costs
/// both ends a wake-up and the kernel its processing, and the client a read. Both builds
/// sending the same data file to wrk (8 alternating rounds): at 64 connections the machine's
/// TCP segments per GiB fell from 34,900 to 31,500, softirq time from 28.6 % of the machine
/// to 26.1 %, and the rate rose 5 %; at 8 connections it rose 9 % (BENCHMARKS.md, "Whole
/// segments for cached spans").
///
/// The head of a response the cache answers at once is written, unflushed, before its span,
/// so it leaves in the span's first segment. Nothing is held while no span is being written:
/// a miss's bytes from the network leave as they come. A refusal leaves the socket as it was:
/// the cork saves CPU, it is never a condition. Other platforms keep their own segmenting.
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

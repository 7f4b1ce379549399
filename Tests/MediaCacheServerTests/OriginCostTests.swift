import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// What players through the proxy cost an unthrottled origin, in the bytes it writes to its
/// sockets: a player that abandons its reads, and the same session again.
@Suite(.timeLimit(.minutes(2))) struct OriginCostTests {
    /// Open-ended reads abandoned a few hundred kilobytes in, as AVPlayer seeks.
    static let session: [(offset: Int64, stopAfter: Int64)] = [
        (0, 700_000), (6_000_000, 1_000_000), (12_000_000, 300_000), (3_000_000, 2_000_000),
    ]

    @Test func aReplayedSessionCostsTheOriginNothing() async throws {
        // A debug build may take over 10 ms to answer on loopback, which would grow the lead the
        // bound below assumes; learning from slow round trips has its own test. What keeps the
        // replay free is the wait at a gap after cached bytes: its reader, ahead of the client by
        // what the sockets hold, waits there while the client reads on and leaves. The default
        // 50 ms is ample for a client that reads at loopback speed (`scripts/bench origin`
        // replays with it); a test process sharing two cores with others can stall a client's
        // task for longer, so the wait here allows for that.
        try await ProxyHarness.run(loading: {
            $0.slowRoundTrip = .seconds(3600)
            $0.gapDelayAfterCache = .seconds(2)
        }) { harness in
            harness.origin.serve("/a.mp4", content: .pattern(length: 16 << 20, seed: 3))
            let client = RangeClient(port: harness.port)
            let path = try #require(URL(string: harness.proxied("/a.mp4"))?.path)
            func play() async throws -> Int64 {
                var delivered: Int64 = 0
                for read in Self.session {
                    delivered += try await client.read(path, range: "bytes=\(read.offset)-", stopAfter: read.stopAfter)
                }
                return delivered
            }
            let delivered = try await play()
            let first = try await harness.origin.settledBytesSent(for: "/a.mp4")
            _ = try await play()
            let second = try await harness.origin.settledBytesSent(for: "/a.mp4")
            #expect(second == first, "the replay cost the origin \(second - first) bytes")
            // Each abandoned read costs at most its lead and what the sockets between the proxy
            // and the client held when it left (a few hundred kilobytes on loopback).
            let bound = delivered + Int64(Self.session.count) * (768 << 10)
            #expect(first <= bound, "the first session cost \(first) bytes for \(delivered) delivered")
        }
    }
}

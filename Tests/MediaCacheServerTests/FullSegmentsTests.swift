import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCacheServer

#if os(Linux)
/// Through the proxy: while a span of the data file is being written, its connection holds
/// partial segments back (`TCP_CORK`, ``FullSegments``), and once the span is written it holds
/// nothing back, so that the span's last bytes and the next response leave at once. Linux only:
/// elsewhere the platform segments as it does.
@Suite(.timeLimit(.minutes(2))) struct FullSegmentsTests {
    @Test(.timeLimit(.minutes(1)))
    func aSpanIsCorkedWhileItIsWrittenAndUncorkedOnceItIs() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.serve("/large.mp4", content: .pattern(length: 64 << 20, seed: 8))
            harness.origin.serve("/small.mp4", content: .pattern(length: 100_000, seed: 9))
            let client = RangeClient(port: harness.port)
            func path(_ name: String) throws -> String { try #require(URL(string: harness.proxied(name))?.path) }
            func corks() -> [Int] { ServerSockets.option(Int32(IPPROTO_TCP), TCP_CORK, port: harness.port) }
            #expect(try await client.read(path("/large.mp4")) == 64 << 20, "cached whole")
            #expect(try await client.read(path("/small.mp4")) == 100_000, "cached whole")

            // A client that stops reading holds the hit's span in the middle of its writing.
            async let stalled = client.read(inTurn: [path("/large.mp4")], stopAfter: 1 << 20, holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            #expect(corks().contains(1), "corked while the span is written: \(corks())")
            _ = try await stalled

            // A hit read to its end, on a connection kept open: its last partial segment has left.
            async let whole = client.read(inTurn: [path("/small.mp4")], stopAfter: 100_000, holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            #expect(corks() == [0], "uncorked once the span is written")
            #expect(try await whole == 100_000)
        }
    }
}
#endif

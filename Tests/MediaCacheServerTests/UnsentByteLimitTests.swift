import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCacheServer

/// Through the proxy: a response that is not a whole hit limits what its socket holds unsent
/// (``UnsentByteLimit``), so that a miss's reader, and its fetch, run no further ahead of a
/// player than that; a whole hit on the same connection lifts the limit again.
@Suite(.timeLimit(.minutes(2))) struct UnsentByteLimitTests {
    @Test(.timeLimit(.minutes(1)))
    func aMissLimitsWhatItsSocketHoldsUnsentAndAHitLiftsIt() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.serve("/hit.mp4", content: .pattern(length: 1 << 20, seed: 4))
            harness.origin.serve("/miss.mp4", content: .pattern(length: 64 << 20, seed: 5))
            harness.origin.serve("/small.mp4", content: .pattern(length: 256 << 10, seed: 6))
            let client = RangeClient(port: harness.port)
            func path(_ name: String) throws -> String { try #require(URL(string: harness.proxied(name))?.path) }
            func limits() -> [Int] { ServerSockets.option(Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, port: harness.port) }
            #expect(try await client.read(path("/hit.mp4")) == 1 << 20, "cached whole")

            async let miss = client.read(inTurn: [path("/miss.mp4")], stopAfter: 256 << 10, holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            #expect(limits() == [Int(UnsentByteLimit.bytes)])
            _ = try await miss

            async let hitAfterMiss = client.read(
                inTurn: [path("/small.mp4"), path("/hit.mp4")], stopAfter: 1 << 20,
                holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            #expect(limits() == [0], "lifted for the hit")
            _ = try await hitAfterMiss
        }
    }
}

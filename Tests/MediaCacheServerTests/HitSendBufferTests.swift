import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCacheServer

/// Through the proxy: a hit enlarges its connection's send buffer (``LocalClientSendBuffer``),
/// and a miss on the same connection gets the kernel's size back before its first byte, so
/// that its reader, and its fetch, run no further ahead of a player that leaves.
@Suite(.timeLimit(.minutes(2))) struct HitSendBufferTests {
    @Test(
        .enabled(if: LocalClientSendBuffer.size != nil, "the kernel here grants no larger send buffer"),
        .timeLimit(.minutes(1)))
    func aHitEnlargesItsConnectionsBufferAndAMissAfterItRestoresIt() async throws {
        let size = try #require(LocalClientSendBuffer.size)
        try await ProxyHarness.run { harness in
            harness.origin.serve("/hit.mp4", content: .pattern(length: 1 << 20, seed: 4))
            harness.origin.serve("/miss.mp4", content: .pattern(length: 64 << 20, seed: 5))
            let client = RangeClient(port: harness.port)
            func path(_ name: String) throws -> String { try #require(URL(string: harness.proxied(name))?.path) }
            #expect(try await client.read(path("/hit.mp4")) == 1 << 20, "cached whole")

            async let afterHit = client.read(inTurn: [path("/hit.mp4")], stopAfter: 1 << 20, holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            #expect(ServerSockets.option(SOL_SOCKET, SO_SNDBUF, port: harness.port) == [2 * size], "Linux doubles what is asked for")
            _ = try await afterHit

            async let afterMiss = client.read(
                inTurn: [path("/hit.mp4"), path("/miss.mp4")], stopAfter: 256 << 10,
                holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            let buffers = ServerSockets.option(SOL_SOCKET, SO_SNDBUF, port: harness.port)
            #expect(buffers.count == 1 && buffers.allSatisfy { $0 < 2 * size }, "the kernel's size again: \(buffers)")
            _ = try await afterMiss
        }
    }
}

import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCacheServer

#if os(Linux)
/// Through the proxy: a connection from this machine is served under Reno, which does not pace,
/// whatever the system's default (``LocalClientCongestionControl``). Linux only: elsewhere the
/// algorithm is the system's, not the socket's.
@Suite(.timeLimit(.minutes(2))) struct LocalClientCongestionControlTests {
    /// A listener on loopback gives its connections Reno itself, from their start (a connection
    /// switched once accepted would still be paced); one on every address gives it to each
    /// connection from this machine.
    @Test(.timeLimit(.minutes(1)), arguments: ["127.0.0.1", "0.0.0.0"])
    func aLoopbackConnectionIsServedUnderReno(listeningOn host: String) async throws {
        let systemDefault = try String(contentsOfFile: "/proc/sys/net/ipv4/tcp_congestion_control", encoding: .utf8)
        // Beyond loopback the proxy asks for a token.
        let token = host == "127.0.0.1" ? nil : "reno-token"
        try await ProxyHarness.run(configure: { configuration in
            configuration.host = host
            configuration.token = token
        }) { harness in
            harness.origin.serve("/clip.mp4", content: .pattern(length: 8 << 20, seed: 7))
            let client = RangeClient(port: harness.port)
            let path = try #require(URL(string: harness.proxied("/clip.mp4", token: token))?.path)
            #expect(try await client.read(path) == 8 << 20, "cached whole")

            // A hit read slowly keeps the connection open while its server end is looked at.
            async let hit = client.read(inTurn: [path], stopAfter: 1 << 20, holding: .seconds(2))
            try await Task.sleep(for: .seconds(1))
            // Every server end on the port: the first read's may not have closed yet.
            let algorithms = ServerSockets.textOption(Int32(IPPROTO_TCP), TCP_CONGESTION, port: harness.port)
            #expect(
                !algorithms.isEmpty && algorithms.allSatisfy { $0 == "reno" },
                "\(algorithms); the system's default is \(systemDefault.trimmingCharacters(in: .whitespacesAndNewlines))")
            _ = try await hit
        }
    }
}
#endif

#if !canImport(AVFoundation)
import AsyncHTTPClient
import AVFoundationShim
import Foundation
import Glibc
import MediaCache
import MediaCacheAVFoundation
import MediaCacheTesting
import NIOFoundationCompat
import Testing

/// iOS takes a suspended app's listening sockets: the embedded proxy binds again on the same
/// port, so that the URLs a player already has keep playing.
@Suite(.timeLimit(.minutes(2))) struct ProxySuspensionTests {
    @Test func aProxyWhoseListenerClosedListensAgainOnItsPort() async throws {
        try await AdapterHarness.run { harness in
            let segment = try await Self.playlistSegmentURL(harness)
            let port = try #require(segment.port)
            #expect(try ListeningSockets.shutDown(port: port) > 0)
            let body = try await Self.get(segment, within: .seconds(20))
            #expect(body == Self.segment.bytes(in: 0..<50_000), "the URL the player has plays again")
            #expect(try await harness.cache.startProxy().port == port)
        }
    }

    @Test func returningToTheForegroundChecksTheProxy() async throws {
        try await AdapterHarness.run { harness in
            let segment = try await Self.playlistSegmentURL(harness)
            #expect(try ListeningSockets.shutDown(port: try #require(segment.port)) > 0)
            NotificationCenter.default.post(name: Notification.Name("UIApplicationWillEnterForegroundNotification"), object: nil)
            await harness.cache.verifyProxy()
            let body = try await Self.get(segment, within: .seconds(20))
            #expect(body == Self.segment.bytes(in: 0..<50_000))
        }
    }

    @Test func aProxyWhosePortWasTakenMeanwhileListensOnAnother() async throws {
        try await AdapterHarness.run { harness in
            let segment = try await Self.playlistSegmentURL(harness)
            let port = try #require(segment.port)
            let occupant = try ListeningSockets.occupy(port: port)
            defer { close(occupant) }
            #expect(try ListeningSockets.shutDown(port: port, sparing: occupant) > 0)
            try await Self.waitUntilMoved(harness.cache, from: port)
            let (_, player) = harness.simulator("/live/index.m3u8")
            let answered = await player.contentInformation(allowed: ["public.m3u-playlist"], toEnd: true).0.finished()
            let text = String(decoding: answered.received, as: UTF8.self)
            let line = try #require(text.split(separator: "\n").first { $0.hasSuffix("segment0.ts") })
            let body = try await Self.get(try #require(URL(string: String(line))), within: .seconds(20))
            #expect(body == Self.segment.bytes(in: 0..<50_000), "a new item plays through the new port")
        }
    }

    /// Returns once the proxy listens on a port other than `port`; throws after 20 seconds.
    private static func waitUntilMoved(_ cache: PlaybackCache, from port: Int) async throws {
        for _ in 0..<400 {
            await cache.verifyProxy()
            if try await cache.startProxy().port != port { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the proxy still names port \(port)")
    }

    private static let segment = TestOrigin.Content.pattern(length: 50_000, seed: 7, mimeType: "video/mp2t")

    /// Plays an HLS item's playlist as AVPlayer does; returns the proxy URL of its segment.
    private static func playlistSegmentURL(_ harness: AdapterHarness) async throws -> URL {
        harness.origin.serve("/live/segment0.ts", content: segment)
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nsegment0.ts\n#EXT-X-ENDLIST\n"
        harness.origin.serve("/live/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
        let (_, player) = harness.simulator("/live/index.m3u8")
        let answered = await player.contentInformation(allowed: ["public.m3u-playlist"], toEnd: true).0.finished()
        let text = String(decoding: answered.received, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasSuffix("segment0.ts") })
        let url = try #require(URL(string: String(line)))
        #expect(url.host == "127.0.0.1" && url.port != harness.origin.port)
        return url
    }

    /// The body of `url`, asked again until it answers 200 or `deadline` passes.
    private static func get(_ url: URL, within deadline: Duration) async throws -> Data {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            do {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
                let body = try await response.body.collect(upTo: 1 << 20)
                if response.status == .ok { return Data(buffer: body) }
            } catch  where clock.now < end {}
            guard clock.now < end else { throw URLError(.cannotConnectToHost) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
#endif

#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheAVFoundation
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// An app's per-asset request options (cookies, user agent, header fields, `headers:`) reach
/// the origin for that asset's requests, its HLS segments among them, through either origin,
/// and never a cache key.
@Suite(.timeLimit(.minutes(2))) struct AssetHeadersTests {
    @Test(arguments: OriginKind.network) func anAssetsOptionsAndHeadersReachItsRequests(_ kind: OriginKind) async throws {
        try await AdapterHarness.run(origin: kind) { harness in
            let file = harness.serve("/secret.mp4", length: 200_000)
            harness.origin.require("Authorization", "Bearer film", for: "/secret.mp4")
            let url = harness.origin.url("/secret.mp4")

            let (bare, refused) = harness.simulator("/secret.mp4")
            _ = await refused.contentInformation().0.finished()
            #expect(bare.cacheErrorLog().events.map(\.errorStatusCode) == [401])
            #expect(bare.cacheErrorLog().events.first?.errorComment?.contains("/secret.mp4") == true, "the 401 names the resource")

            let cookie = try #require(HTTPCookie(properties: [.name: "session", .value: "abc", .domain: "127.0.0.1", .path: "/"]))
            let asset = harness.cache.asset(
                for: url, options: [AVURLAssetHTTPCookiesKey: [cookie], AVURLAssetHTTPUserAgentKey: "FilmApp/3"],
                headers: ["Authorization": "Bearer film"])
            let player = ResourceLoaderSimulator(asset)
            _ = await player.contentInformation().0.finished()
            let whole = await player.read(from: 0).finished()
            #expect(whole.loading.finishError == nil && Bytes(whole.received) == Bytes(file))
            let sent = try #require(harness.origin.requests(for: "/secret.mp4").last?.headers)
            #expect(sent["authorization"] == "Bearer film" && sent["user-agent"] == "FilmApp/3")
            #expect(sent["cookie"]?.contains("session=abc") == true)
            #expect(
                try harness.store.record(for: harness.store.key(for: url))?.isComplete == true,
                "the bytes are cached under the URL's own key")
        }
    }

    @Test func anHLSAssetsHeadersReachItsSegmentsThroughTheProxy() async throws {
        try await AdapterHarness.run { harness in
            harness.origin.serve("/live/segment0.ts", content: .pattern(length: 50_000, seed: 7, mimeType: "video/mp2t"))
            harness.origin.require("Authorization", "Bearer live", for: "/live/segment0.ts")
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nsegment0.ts\n#EXT-X-ENDLIST\n"
            harness.origin.serve("/live/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let asset = harness.cache.asset(for: harness.origin.url("/live/index.m3u8"), headers: ["Authorization": "Bearer live"])
            let answered = await ResourceLoaderSimulator(asset).contentInformation(allowed: ["public.m3u-playlist"], toEnd: true).0
                .finished()
            let text = String(decoding: answered.received, as: UTF8.self)
            let segment = try #require(
                text.split(separator: "\n").first { $0.hasSuffix("segment0.ts") }.flatMap { URL(string: String($0)) })
            let (status, body) = try await Self.get(segment)
            #expect(status == 200 && body.count == 50_000)
            #expect(harness.origin.requests(for: "/live/segment0.ts").last?.headers["authorization"] == "Bearer live")
        }
    }

    private static func get(_ url: URL) async throws -> (Int, Data) {
        let (body, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}
#endif

import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// An HLS presentation played through the proxy is one asset: one entry in `GET /api/entries`
/// with the seconds cached per variant and rendition, its resources on request, its statistics
/// rolled up, a bar per playlist on the status page, and removed whole.
@Suite(.timeLimit(.minutes(2))) struct HLSAssetTests {
    @Test func aPlayedPresentationIsOneEntryWithSecondsPerPlaylistAndIsRemovedWhole() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(.multivariant, seconds: 6).make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            proxy.origin.serve("/clip.mp4", content: .pattern(length: 10_000, seed: 4))
            _ = try await proxy.request(proxy.proxied("/clip.mp4"))
            _ = try await HLSShapesTests.md5(proxy.proxied("/hls/master.m3u8"))

            let reports = try APIJSON.decoder().decode([EntryReport].self, from: try await proxy.request(proxy.local("api/entries")).body)
            #expect(reports.count == 2, "the presentation and the clip: \(reports.map(\.entry.url))")
            let report = try #require(reports.first { $0.asset != nil })
            let asset = try #require(report.asset)
            #expect(report.entry.url == proxy.origin.url("/hls/master.m3u8").absoluteString)
            #expect(asset.playlists.map(\.kind) == [.variant, .audio, .audio, .subtitles])
            let video = asset.playlists[0]
            #expect(video.seconds >= 5.9 && video.cachedSeconds == video.seconds, "the variant played whole: \(video)")
            #expect(asset.playlists.contains { $0.kind == .audio && $0.cachedSeconds > 0 }, "the default audio played")
            let stored = files.filter { proxy.origin.bytesSent(for: "/hls/" + $0.key) > 0 }
            #expect(asset.cachedBytes >= stored.values.map { Int64($0.count) }.reduce(0, +) - 16 << 10)
            #expect(asset.members == nil, "members only on request")
            #expect((asset.statistics?.bytesServed ?? 0) > 0, "statistics roll up over the asset's resources")

            let withMembers = try APIJSON.decoder().decode(
                [EntryReport].self,
                from: try await proxy.request(proxy.local("api/entries?members=true")).body)
            let members = try #require(withMembers.first { $0.asset != nil }?.asset?.members)
            #expect(members.contains { $0.entry.url.hasSuffix(".ts") } && members.contains { $0.entry.url.hasSuffix("index.m3u8") })

            let page = String(decoding: try await proxy.request(proxy.local("")).body, as: UTF8.self)
            #expect(page.contains(#"class="entry asset""#) && page.contains("audio audio_1 (en)"), "a bar per rendition")

            let encoded = report.entry.url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let removal = try await proxy.request(proxy.local("api/entries/" + encoded), method: .DELETE)
            #expect(removal.status == 200)
            let removed = try APIJSON.decoder().decode(RemovalReport.self, from: removal.body)
            #expect(removed.removed.count == members.count, "every stored resource of it, the playlist first")
            #expect(removed.removed.first == report.entry.key)
            let left = try APIJSON.decoder().decode([EntryReport].self, from: try await proxy.request(proxy.local("api/entries")).body)
            #expect(left.map(\.entry.url) == [proxy.origin.url("/clip.mp4").absoluteString])
        }
    }
}

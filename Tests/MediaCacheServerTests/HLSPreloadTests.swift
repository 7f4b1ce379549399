import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `POST /api/preload` of an HLS playlist preloads what a player starts with, and ffmpeg then
/// decodes those seconds through the proxy with the origin gone.
@Suite(.timeLimit(.minutes(2))) struct HLSPreloadTests {
    @Test func aPreloadedPresentationStartsWithTheOriginStopped() async throws {
        try await ProxyHarness.run { proxy in
            let hls = TestHLS(.multivariant, seconds: 10)
            let files = try await hls.make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let master = proxy.origin.url("/hls/master.m3u8").absoluteString
            let ffmpeg = try Tools.require("ffmpeg")
            let arguments = ["-v", "error", "-t", "3", "-i"]
            let output = ["-map", "0:v:0", "-map", "0:a:0", "-f", "md5", "-"]
            let direct = try await CommandRun.run(path: ffmpeg, arguments + [master] + output)
            #expect(direct.status == 0 && direct.output.hasPrefix("MD5="), "\(direct.errorOutput)")
            let sentBefore = Dictionary(uniqueKeysWithValues: files.keys.map { ($0, proxy.origin.bytesSent(for: "/hls/" + $0)) })

            let request = PreloadRequest(urls: [master], amount: .seconds(4))
            let queued = try await proxy.request(proxy.local("api/preload"), method: .POST, body: APIJSON.encoder().encode(request))
            #expect(queued.status == 200)
            let job = try #require(try await PreloadProxyTests().ended(proxy).first)
            #expect(job.state == .finished, "\(job)")
            #expect(job.method?.hasPrefix("HLS 320x240") == true && job.method?.contains("audio_1 (en)") == true, "\(job.method ?? "")")

            let fetched = files.keys.filter { proxy.origin.bytesSent(for: "/hls/" + $0) > sentBefore[$0] ?? 0 }
            let segments = fetched.filter { !$0.hasSuffix(".m3u8") }.sorted()
            #expect(
                segments.contains { $0.hasPrefix("v0/") } && segments.contains { $0.hasPrefix("v1/") },
                "the variant and the default audio: \(segments)")
            #expect(segments.filter { $0.hasPrefix("v2/") } == ["v2/segment0.ts"], "of the other language, what ffmpeg probes")
            #expect(!segments.contains { $0.hasSuffix(".vtt") }, "no subtitles nobody turned on: \(segments)")
            let variantSegments = files.keys.filter { $0.hasPrefix("v0/") && $0.hasSuffix(".ts") }
            #expect(segments.filter { $0.hasPrefix("v0/") }.count < variantSegments.count, "only the first seconds")
            #expect(
                fetched.filter { $0.hasSuffix(".m3u8") }.count == files.keys.filter { $0.hasSuffix(".m3u8") }.count,
                "every playlist, as players read them all")

            try await proxy.origin.stop()
            let offline = try await CommandRun.run(path: ffmpeg, arguments + [proxy.proxied("/hls/master.m3u8")] + output)
            #expect(offline.status == 0, "\(offline.errorOutput)")
            #expect(offline.output == direct.output, "the first 3 s decode as from the origin")

            let entries = try APIJSON.decoder().decode([EntryReport].self, from: try await proxy.request(proxy.local("api/entries")).body)
            #expect(entries.count == 1 && entries.first?.asset != nil, "a preload records the asset too")
        }
    }
}

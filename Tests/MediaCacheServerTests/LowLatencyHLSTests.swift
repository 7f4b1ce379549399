import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheTesting
import Testing

/// LL-HLS through the proxy: every URI of its tags routed, blocking reloads forwarded to the
/// origin and never answered with an older playlist, parts fetched once with their segment,
/// and the stream read to its end by a player that takes it for an ordinary live stream.
@Suite(.timeLimit(.minutes(3))) struct LowLatencyHLSTests {
    /// The test presentation's segments, served by the test origin, and an LL-HLS origin
    /// publishing them through `last`.
    func start(_ proxy: ProxyHarness, last: Int) async throws -> (LowLatencyOrigin, [String: Data]) {
        let files = try await TestHLS(.ts, seconds: 8).make(in: proxy.directory.path)
        let vod = try MediaPlaylist(try Playlist(parsing: try #require(files["index.m3u8"])))
        for (path, data) in files where path.hasSuffix(".ts") {
            proxy.origin.serve("/live/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
        }
        let segments = vod.segments.map { segment in
            (url: proxy.origin.url("/live/" + segment.uri), duration: segment.duration, length: files[segment.uri]?.count ?? 0)
        }
        return (try await LowLatencyOrigin.start(segments: segments, last: last), files)
    }

    func proxied(_ proxy: ProxyHarness, _ url: URL) -> String {
        ProxyURL(host: "127.0.0.1", port: proxy.port).url(for: url)!.absoluteString
    }

    @Test func aBlockingReloadIsHeldByTheOriginAndItsPartsComeOnceWithTheirSegment() async throws {
        try await ProxyHarness.run { proxy in
            let (live, files) = try await start(proxy, last: 1)
            defer { Task { await live.stop() } }
            let playlist = proxied(proxy, live.url("/live/index.m3u8"))
            let first = String(decoding: try await proxy.request(playlist).body, as: UTF8.self)
            let segmentsRoot = "/http/127.0.0.1:\(proxy.origin.port)/live/"
            #expect(first.contains("#EXT-X-PART:DURATION="), "\(first)")
            #expect(first.contains("URI=\"\(segmentsRoot)segment1.ts\",BYTERANGE="), "every part routed")
            #expect(first.contains("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(segmentsRoot)segment2.ts\",BYTERANGE-START=0"))
            #expect(first.contains("#EXT-X-RENDITION-REPORT:URI=\"/http/127.0.0.1:\(live.port)/audio/index.m3u8\""))

            // As Apple's player does: ask for the next segment's first part before it exists.
            let blocked = Task { try await proxy.request(playlist + "?_HLS_msn=2&_HLS_part=0") }
            await live.asked(1)
            await live.publish(through: 2)
            let reload = String(decoding: try await blocked.value.body, as: UTF8.self)
            #expect(reload.contains("\n\(segmentsRoot)segment2.ts\n"), "the playlist the origin held, not the stored one: \(reload)")
            #expect(await live.directives == ["_HLS_msn=2&_HLS_part=0"], "the directive reached the origin as sent")
            // Asked again, the reload is the origin's again: a stored copy is older than what it asks for.
            _ = try await proxy.request(playlist + "?_HLS_msn=2&_HLS_part=0")
            #expect(await live.directives.count == 2)

            // A delta update skips what the player has; it is the origin's too.
            let delta = String(decoding: try await proxy.request(playlist + "?_HLS_msn=2&_HLS_skip=YES").body, as: UTF8.self)
            #expect(delta.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=1\n") && !delta.contains("segment0.ts"), "\(delta)")
            #expect(delta.contains("\n\(segmentsRoot)segment2.ts\n"))
            #expect(await live.directives.last == "_HLS_msn=2&_HLS_skip=YES")

            // The preload hint (the segment from its start, open-ended), its parts, then the whole
            // segment: its bytes leave the origin once.
            let segment = try #require(files["segment2.ts"])
            let half = segment.count / 2
            let url = proxy.proxied("/live/segment2.ts")
            let hint = try await proxy.request(url, headers: [("Range", "bytes=0-")])
            #expect(hint.status == 206 && hint.body == segment)
            let part0 = try await proxy.request(url, headers: [("Range", "bytes=0-\(half - 1)")])
            let part1 = try await proxy.request(url, headers: [("Range", "bytes=\(half)-\(segment.count - 1)")])
            let whole = try await proxy.request(url)
            #expect(part0.status == 206 && part0.body == segment.prefix(half))
            #expect(part1.status == 206 && part1.body == segment.suffix(from: half))
            #expect(whole.status == 200 && whole.body == segment)
            #expect(try await proxy.origin.settledBytesSent(for: "/live/segment2.ts") == Int64(segment.count), "each byte once")
        }
    }

    @Test func ffmpegReadsTheLowLatencyStreamThroughTheProxyToItsEnd() async throws {
        let ffmpeg = try Tools.require("ffmpeg")
        try await ProxyHarness.run { proxy in
            let (live, files) = try await start(proxy, last: 1)
            defer { Task { await live.stop() } }
            let count = live.segments.count
            // A segment is published once the player has begun the newest one, so that a loaded
            // machine never makes it miss one.
            let publishing = Task {
                for msn in 2..<count {
                    await proxy.origin.requested("/live/" + live.segments[msn - 1].url.lastPathComponent)
                    await live.publish(through: msn)
                }
            }
            defer { publishing.cancel() }
            let run = try await CommandRun.run(
                path: "/usr/bin/timeout",
                [
                    "-k", "5", "90", ffmpeg, "-v", "error", "-i",
                    proxied(proxy, live.url("/live/index.m3u8")), "-f", "md5", "-",
                ])
            #expect(run.status == 0, "\(run.errorOutput)")
            let whole = live.segments.reduce(Data()) { $0 + (files[$1.url.lastPathComponent] ?? Data()) }
            let direct = proxy.directory.appending("whole.ts")
            try whole.write(to: URL(fileURLWithPath: direct))
            let reference = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-i", direct, "-f", "md5", "-"])
            #expect(run.output == reference.output, "every segment in order, through the parts' playlist")
        }
    }
}

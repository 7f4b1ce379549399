import Foundation
import MediaCache
import MediaCacheHLS
import MediaCacheServer
import MediaCacheTesting
import Testing

/// Playlists stay as fresh as RFC 8216 asks through the proxy: a live window is never older
/// than half its target duration while the origin answers, the last copy is served with its
/// `Age` when the origin is gone, a changed VOD playlist replaces the old one, and a
/// redirected playlist resolves against where it was answered from.
@Suite(.timeLimit(.minutes(2))) struct PlaylistFreshnessTests {
    /// A live window of three one-second segments starting at `sequence`.
    static func window(_ sequence: Int, targetDuration: Int = 1) -> TestOrigin.Content {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(targetDuration)\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
        for number in sequence..<(sequence + 3) { text += "#EXTINF:1.0,\nsegment\(number).ts\n" }
        return .data(Data(text.utf8), mimeType: "application/vnd.apple.mpegurl")
    }

    static func sequence(_ answer: ProxyHarness.Answer) -> Int? {
        String(decoding: answer.body, as: UTF8.self).firstMatch(of: /#EXT-X-MEDIA-SEQUENCE:(\d+)/).flatMap { Int($0.1) }
    }

    @Test func aSlidingLiveWindowIsNeverServedOlderThanHalfItsTargetDuration() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/live/index.m3u8", content: Self.window(0))
            #expect(Self.sequence(try await proxy.request(proxy.proxied("/live/index.m3u8"))) == 0)
            for sequence in 1...4 {
                proxy.origin.serve("/live/index.m3u8", content: Self.window(sequence))
                // Half the target duration (0.5 s) and a little more: the copy is due.
                try await Task.sleep(for: .milliseconds(600))
                let answer = try await proxy.request(proxy.proxied("/live/index.m3u8"))
                #expect(answer.status == 200)
                #expect(Self.sequence(answer) == sequence, "window \(sequence) is live on the origin")
                #expect(String(decoding: answer.body, as: UTF8.self).contains("/live/segment\(sequence + 2).ts"))
            }
            let revalidations = proxy.origin.requests(for: "/live/index.m3u8").filter { $0.ifNoneMatch != nil }
            #expect(revalidations.count == 4, "each reload asked the origin with the stored validator")
        }
    }

    @Test func ffmpegFollowsALiveStreamThroughTheProxyToItsEnd() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(.ts, seconds: 12).make(in: proxy.directory.path)
            for (path, data) in files where path.hasSuffix(".ts") {
                proxy.origin.serve("/live/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
            }
            let vod = try MediaPlaylist(try Playlist(parsing: try #require(files["index.m3u8"])))
            #expect(vod.segments.count >= 5)
            /// The window of three segments from `sequence`, ended after the last segment.
            func window(_ sequence: Int) -> TestOrigin.Content {
                var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(vod.targetDuration)\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
                for segment in vod.segments[sequence..<min(sequence + 3, vod.segments.count)] {
                    text += String(format: "#EXTINF:%.6f,\n", segment.duration) + segment.uri + "\n"
                }
                if sequence + 3 >= vod.segments.count { text += "#EXT-X-ENDLIST\n" }
                return .data(Data(text.utf8), mimeType: "application/vnd.apple.mpegurl")
            }
            proxy.origin.serve("/live/index.m3u8", content: window(0))
            let live = Task {
                // The stream goes live when the player first asks for it, and a segment leaves the
                // window only once the player has begun the newest one, so that a loaded machine
                // never makes the player miss one: what is tested is the playlist's freshness.
                await proxy.origin.requested("/live/index.m3u8")
                for sequence in 1...(vod.segments.count - 3) {
                    try await Task.sleep(for: .seconds(vod.segments[sequence - 1].duration))
                    let newest = "/live/" + vod.segments[sequence + 1].uri
                    await proxy.origin.requested(newest)
                    proxy.origin.serve("/live/index.m3u8", content: window(sequence))
                }
            }
            defer { live.cancel() }
            let run = try await CommandRun.run(
                path: try Tools.require("ffmpeg"),
                ["-v", "error", "-i", proxy.proxied("/live/index.m3u8"), "-f", "md5", "-"])
            #expect(run.status == 0, "\(run.errorOutput)")
            let whole = vod.segments.reduce(Data()) { $0 + (files[$1.uri] ?? Data()) }
            let direct = proxy.directory.appending("live-whole.ts")
            try whole.write(to: URL(fileURLWithPath: direct))
            let reference = try await CommandRun.run(path: try Tools.require("ffmpeg"), ["-v", "error", "-i", direct, "-f", "md5", "-"])
            #expect(run.output == reference.output, "every segment of the live stream, in order, none stale or missing")
            #expect(proxy.origin.requests(for: "/live/index.m3u8").count >= vod.segments.count - 2, "the window was followed")
        }
    }

    @Test func aLivePlaylistWithinHalfItsTargetDurationCostsTheOriginNothing() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/live/index.m3u8", content: Self.window(7, targetDuration: 60))
            _ = try await proxy.request(proxy.proxied("/live/index.m3u8"))
            let asked = proxy.origin.requests(for: "/live/index.m3u8").count
            let again = try await proxy.request(proxy.proxied("/live/index.m3u8"))
            #expect(Self.sequence(again) == 7)
            #expect(proxy.origin.requests(for: "/live/index.m3u8").count == asked, "30 s of freshness")
        }
    }

    @Test func aLiveCopyIsServedWithItsAgeForThreeTargetDurationsOfOutageThenTheStreamEnds() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/live/index.m3u8", content: Self.window(3))
            let online = try await proxy.request(proxy.proxied("/live/index.m3u8"))
            try await proxy.origin.stop()
            try await Task.sleep(for: .milliseconds(1_100))
            let offline = try await proxy.request(proxy.proxied("/live/index.m3u8"))
            #expect(offline.status == 200 && offline.body == online.body)
            let age = try #require(offline.headers["age"].flatMap { Int($0) }, "the copy says how old it is")
            #expect(age >= 1)
            // Three target durations (3 s) after the origin last confirmed it, the stream ends.
            try await Task.sleep(for: .milliseconds(2_100))
            let ended = try await proxy.request(proxy.proxied("/live/index.m3u8"))
            #expect(ended.status == 504)
            #expect(
                String(decoding: ended.body, as: UTF8.self).contains("was last confirmed by its origin 3 s ago"),
                "\(String(decoding: ended.body, as: UTF8.self))")
        }
    }

    @Test func ffmpegEndsALiveStreamWhoseOriginDiedThroughTheProxy() async throws {
        let ffmpeg = try Tools.require("ffmpeg")
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(.ts, seconds: 12).make(in: proxy.directory.path)
            for (path, data) in files where path.hasSuffix(".ts") {
                proxy.origin.serve("/live/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
            }
            let vod = try MediaPlaylist(try Playlist(parsing: try #require(files["index.m3u8"])))
            // A live window (no end) of the first three segments, which never moves.
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(vod.targetDuration)\n#EXT-X-MEDIA-SEQUENCE:0\n"
            for segment in vod.segments.prefix(3) { text += String(format: "#EXTINF:%.6f,\n", segment.duration) + segment.uri + "\n" }
            proxy.origin.serve("/live/index.m3u8", content: .data(Data(text.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let outage = Task {
                await proxy.origin.requested("/live/" + vod.segments[2].uri)
                try await proxy.origin.stop()
            }
            let started = ContinuousClock.now
            // Reading the origin directly, ffmpeg ends about a second after it dies; through a proxy
            // that served the last window for ever, it polled until killed.
            let run = try await CommandRun.run(
                path: "/usr/bin/timeout",
                [
                    "-k", "5", "60", ffmpeg, "-v", "error", "-i",
                    proxy.proxied("/live/index.m3u8"), "-f", "null", "-",
                ])
            try await outage.value
            #expect(![124, 137].contains(run.status), "ffmpeg still read the stream a minute later")
            let limit = Duration.seconds(3 * vod.targetDuration + 20)
            #expect(ContinuousClock.now - started < limit, "ended within three target durations of the outage, and playback")
        }
    }

    @Test func aChangedVODPlaylistReplacesTheOldOneWhole() async throws {
        try await ProxyHarness.run(engine: { $0.playlistFreshness = PlaylistFreshness(staticMaximumAge: .zero) }) { proxy in
            let old = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nold0.ts\n#EXTINF:4,\nold1.ts\n#EXT-X-ENDLIST\n"
            let new = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nnew0.ts\n#EXT-X-ENDLIST\n"
            proxy.origin.serve("/vod/index.m3u8", content: .data(Data(old.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let first = String(decoding: try await proxy.request(proxy.proxied("/vod/index.m3u8")).body, as: UTF8.self)
            #expect(first.contains("/vod/old1.ts"))
            proxy.origin.serve("/vod/index.m3u8", content: .data(Data(new.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let second = String(decoding: try await proxy.request(proxy.proxied("/vod/index.m3u8")).body, as: UTF8.self)
            let prefix = "/http/127.0.0.1:\(proxy.origin.port)/vod"
            #expect(second == "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n\(prefix)/new0.ts\n#EXT-X-ENDLIST\n")
        }
    }

    @Test func aRedirectedPlaylistPlaysThroughTheProxyAndAgainOffline() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(seconds: 6).make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            proxy.origin.redirect("/watch/index.m3u8", to: "/hls/index.m3u8")
            let direct = try await HLSShapesTests.md5(proxy.origin.url("/watch/index.m3u8").absoluteString)
            #expect(direct.hasPrefix("MD5="))

            let rewritten = String(decoding: try await proxy.request(proxy.proxied("/watch/index.m3u8")).body, as: UTF8.self)
            #expect(rewritten.contains("/hls/segment0.ts"), "URIs resolve against the playlist's final URL")
            #expect(try await HLSShapesTests.md5(proxy.proxied("/watch/index.m3u8")) == direct)
            try await proxy.origin.stop()
            #expect(try await HLSShapesTests.md5(proxy.proxied("/watch/index.m3u8")) == direct, "offline, from the cache")
        }
    }
}

import Foundation
import MediaCache
@testable import MediaCacheServer
import MediaCacheTesting
import Testing

/// Playlists through the proxy: recognised by type, extension or first line, served with every
/// URI routed through the proxy, refused precisely when malformed; and a real HLS presentation
/// with absolute segment URIs decoded by ffmpeg through the proxy, then again offline.
@Suite(.timeLimit(.minutes(2))) struct ProxyPlaylistTests {
    func text(_ answer: ProxyHarness.Answer) -> String {
        String(decoding: answer.body, as: UTF8.self)
    }

    @Test func everyURIOfAPlaylistIsRoutedThroughTheProxyWithTheToken() async throws {
        try await ProxyHarness.run(configure: { $0.token = "t0ken-for-tests" }) { proxy in
            let origin = "127.0.0.1:\(proxy.origin.port)"
            let playlist = """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
                #EXT-X-KEY:METHOD=AES-128,URI="/keys/k.bin?sig=1"
                #EXTINF:4,
                seg0.m4s?sig=abc
                #EXTINF:4,
                http://\(origin)/elsewhere/seg1.m4s
                #EXT-X-ENDLIST

                """
            proxy.origin.serve("/v/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let answer = try await proxy.request(
                proxy.proxied("/v/index.m3u8", token: "t0ken-for-tests"), headers: [("Range", "bytes=0-9")])
            #expect(answer.status == 200, "a playlist is answered whole")
            let prefix = "/t/t0ken-for-tests/http/\(origin)"
            #expect(
                text(answer) == """
                    #EXTM3U
                    #EXT-X-TARGETDURATION:4
                    #EXT-X-MAP:URI="\(prefix)/v/init.mp4",BYTERANGE="720@0"
                    #EXT-X-KEY:METHOD=AES-128,URI="\(prefix)/keys/k.bin?sig=1"
                    #EXTINF:4,
                    \(prefix)/v/seg0.m4s?sig=abc
                    #EXTINF:4,
                    \(prefix)/elsewhere/seg1.m4s
                    #EXT-X-ENDLIST

                    """)
            #expect(answer.headers["content-length"] == "\(answer.body.count)")
            #expect(answer.headers["content-type"] == "application/vnd.apple.mpegurl")
            let head = try await proxy.request(proxy.proxied("/v/index.m3u8", token: "t0ken-for-tests"), method: .HEAD)
            #expect(head.headers["content-length"] == "\(answer.body.count)" && head.body.isEmpty)
        }
    }

    @Test func aNewPlaylistCostsTheOriginOneRequestAndALargeOneItsBytesOnce() async throws {
        try await ProxyHarness.run { proxy in
            let small = Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n".utf8)
            proxy.origin.serve("/small.m3u8", content: .data(small, mimeType: "application/vnd.apple.mpegurl"))
            #expect(try await proxy.request(proxy.proxied("/small.m3u8")).status == 200)
            #expect(proxy.origin.requests(for: "/small.m3u8").count == 1, "its first read is the whole of it: no probe before")

            // Larger than the first read: its length comes with the first bytes, and the rest follows
            // under If-Range, so that a changed playlist would come whole instead.
            var large = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
            for index in 0..<12_000 { large += "#EXTINF:4,\nsegment\(index).ts\n" }
            large += "#EXT-X-ENDLIST\n"
            proxy.origin.serve("/large.m3u8", content: .data(Data(large.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let answer = try await proxy.request(proxy.proxied("/large.m3u8"))
            #expect(answer.status == 200 && text(answer).contains("/segment11999.ts\n#EXT-X-ENDLIST"))
            let requests = proxy.origin.requests(for: "/large.m3u8")
            #expect(requests.map(\.range) == ["bytes=0-262143", "bytes=262144-"], "\(requests)")
            #expect(requests.last?.ifRange != nil)
            #expect(proxy.origin.bytesSent(for: "/large.m3u8") < Int64(large.utf8.count) + 4_096, "each byte once")
        }
    }

    @Test func aPlaylistIsRecognisedByItsFirstLineWhenTypeAndNameSayNothing() async throws {
        try await ProxyHarness.run { proxy in
            let playlist = Data("#EXTM3U\n#EXTINF:4,\nhttp://cdn.example/a.ts\n".utf8)
            proxy.origin.serve("/live", content: .data(playlist, mimeType: "text/plain"))
            let answer = try await proxy.request(proxy.proxied("/live"))
            #expect(text(answer) == "#EXTM3U\n#EXTINF:4,\n/http/cdn.example/a.ts\n")
            proxy.origin.serve("/other", content: .data(Data("just some text".utf8), mimeType: "text/plain"))
            #expect(try await proxy.request(proxy.proxied("/other")).body == Data("just some text".utf8), "other text passes as it is")
        }
    }

    @Test func aPathThatNamesAMediaFileIsNoPlaylistWhateverItsFirstLine() async throws {
        try await ProxyHarness.run { proxy in
            // As AVFoundation and ExoPlayer read it: a `.mp4` of a generic type is MP4.
            let bytes = Data("#EXTM3U\n#EXTINF:4,\nhttp://cdn.example/a.ts\n".utf8)
            proxy.origin.serve("/clip.mp4", content: .data(bytes, mimeType: "application/octet-stream"))
            let answer = try await proxy.request(proxy.proxied("/clip.mp4"))
            #expect(answer.body == bytes, "passed as it is, not rewritten")
            #expect(answer.headers["content-type"] == "application/octet-stream")
        }
    }

    @Test func whatIsNoPlaylistOrTooLargeGetsAPreciseBoundedError() async throws {
        try await ProxyHarness.run { proxy in

            proxy.origin.serve("/garbage.m3u8", content: .pattern(length: 4_096, seed: 1, mimeType: "application/vnd.apple.mpegurl"))
            #expect(try await proxy.request(proxy.proxied("/garbage.m3u8")).status == 502)

            proxy.origin.serve("/huge.m3u8", content: .pattern(length: (16 << 20) + 1, seed: 2, mimeType: "application/vnd.apple.mpegurl"))
            let huge = try await proxy.request(proxy.proxied("/huge.m3u8"))
            #expect(huge.status == 502)
            #expect(text(huge).contains("larger than 16.0 MiB"))
            #expect(proxy.origin.bytesSent(for: "/huge.m3u8") < 1 << 20, "a playlist known to be too large is not fetched")

            let longLine = "#EXTM3U\n#EXTINF:4,\n" + String(repeating: "a", count: 1 << 20) + ".ts\n"
            proxy.origin.serve("/long.m3u8", content: .data(Data(longLine.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let long = try await proxy.request(proxy.proxied("/long.m3u8"))
            #expect(long.status == 502 && text(long).contains("longer than 65536 bytes"))
        }
    }

    /// As players are: a tag the proxy cannot read passes byte for byte, and every URI it can
    /// find is still routed through it.
    @Test func aPlaylistWithTagsThatCannotBeReadPassesWithItsURIsRouted() async throws {
        try await ProxyHarness.run { proxy in
            let origin = "127.0.0.1:\(proxy.origin.port)"
            let playlist = """
                #EXTM3U
                #EXT-X-TARGETDURATION:
                #EXT-X-MEDIA-SEQUENCE:-1
                #EXT-X-PLAYLIST-TYPE:LIVE
                #EXT-X-KEY:METHOD=AES-128,URI="k
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:4.0,a title, with commas
                seg0.ts
                #EXTINF:four,
                seg1.ts

                """
            proxy.origin.serve("/odd/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let answer = try await proxy.request(proxy.proxied("/odd/index.m3u8"))
            #expect(answer.status == 200)
            let prefix = "/http/\(origin)/odd"
            #expect(
                text(answer) == """
                    #EXTM3U
                    #EXT-X-TARGETDURATION:
                    #EXT-X-MEDIA-SEQUENCE:-1
                    #EXT-X-PLAYLIST-TYPE:LIVE
                    #EXT-X-KEY:METHOD=AES-128,URI="k
                    #EXT-X-MAP:URI="\(prefix)/init.mp4"
                    #EXTINF:4.0,a title, with commas
                    \(prefix)/seg0.ts
                    #EXTINF:four,
                    \(prefix)/seg1.ts

                    """)
            #expect(try await proxy.request(proxy.proxied("/odd/index.m3u8")).body == answer.body, "and again from the cache")
        }
    }

    @Test func dotSegmentsInAKeyURIStayOnTheOrigin() async throws {
        try await ProxyHarness.run { proxy in
            let origin = "127.0.0.1:\(proxy.origin.port)"
            let playlist = """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-KEY:METHOD=AES-128,URI="../../../../../etc/passwd"
                #EXT-X-MAP:URI="/../api/entries"
                #EXTINF:4,
                ../../seg.ts
                #EXT-X-ENDLIST

                """
            proxy.origin.serve("/a/b/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let answer = try await proxy.request(proxy.proxied("/a/b/index.m3u8"))
            #expect(answer.status == 200)
            let prefix = "/http/\(origin)"
            #expect(text(answer).contains(#"URI="\#(prefix)/etc/passwd""#), "resolved on the origin, as RFC 3986 says")
            #expect(text(answer).contains(#"URI="\#(prefix)/api/entries""#), "never a path of the proxy's own API")
            #expect(text(answer).contains("\n\(prefix)/seg.ts\n"))
        }
    }

    @Test func hlsWithAbsoluteSegmentURIsDecodesThroughTheProxyAndAgainOffline() async throws {
        let ffmpeg = try Tools.require("ffmpeg")
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(seconds: 6, baseURL: proxy.origin.url("/hls/")).make(in: proxy.directory.path)
            for (name, data) in files { proxy.origin.serve("/hls/" + name, content: .data(data, mimeType: TestHLS.mimeType(of: name))) }
            let playlist = String(decoding: files["index.m3u8"] ?? Data(), as: UTF8.self)
            #expect(playlist.contains(proxy.origin.url("/hls/segment0.ts").absoluteString), "the segment URIs are absolute")

            func md5(_ url: String) async throws -> String {
                let run = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-i", url, "-f", "md5", "-"])
                #expect(run.status == 0, "\(run.errorOutput)")
                #expect(run.errorOutput.isEmpty, "\(run.errorOutput)")
                return run.output
            }
            let direct = try await md5(proxy.origin.url("/hls/index.m3u8").absoluteString)
            let segments = files.keys.filter { $0.hasSuffix(".ts") }
            let sentDirectly = segments.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
            #expect(try await md5(proxy.proxied("/hls/index.m3u8")) == direct)
            let sentThroughProxy = segments.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +) - sentDirectly
            #expect(
                sentThroughProxy == files.filter { $0.key.hasSuffix(".ts") }.map { Int64($0.value.count) }.reduce(0, +),
                "every segment came through the proxy, each once")

            try await proxy.origin.stop()
            #expect(try await md5(proxy.proxied("/hls/index.m3u8")) == direct, "offline, from the cache")
        }
    }
}

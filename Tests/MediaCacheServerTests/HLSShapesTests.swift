import Foundation
import MediaCache
import MediaCacheHLS
import MediaCacheServer
import MediaCacheTesting
import Testing

/// Every HLS shape ffmpeg makes, played by ffmpeg through the proxy as from the origin, then
/// again with the origin stopped; each file fetched from the origin at most once.
@Suite(.timeLimit(.minutes(2))) struct HLSShapesTests {
    /// One decode of every video and audio stream, as an MD5 of the decoded frames.
    static func md5(_ url: String) async throws -> String {
        let run = try await CommandRun.run(
            path: try Tools.require("ffmpeg"),
            ["-v", "error", "-i", url, "-map", "0:v?", "-map", "0:a?", "-f", "md5", "-"])
        #expect(run.status == 0, "\(url): \(run.errorOutput)")
        #expect(run.errorOutput.isEmpty, "\(url): \(run.errorOutput)")
        return run.output
    }

    @Test(arguments: TestHLS.Shape.allCases)
    func aShapePlaysThroughTheProxyAsFromTheOriginAndAgainOffline(_ shape: TestHLS.Shape) async throws {
        try await ProxyHarness.run { proxy in
            let hls = TestHLS(shape, seconds: 6)
            let files = try await hls.make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let direct = try await Self.md5(proxy.origin.url("/hls/" + hls.entry).absoluteString)
            #expect(direct.hasPrefix("MD5="))
            let before = Dictionary(uniqueKeysWithValues: files.keys.map { ($0, proxy.origin.bytesSent(for: "/hls/" + $0)) })

            #expect(try await Self.md5(proxy.proxied("/hls/" + hls.entry)) == direct)
            for (path, data) in files where !path.hasSuffix(".m3u8") {
                let sent = proxy.origin.bytesSent(for: "/hls/" + path) - (before[path] ?? 0)
                #expect(sent <= Int64(data.count), "\(path): \(sent) bytes sent for \(data.count)")
            }

            try await proxy.origin.stop()
            #expect(try await Self.md5(proxy.proxied("/hls/" + hls.entry)) == direct, "offline, from the cache")
        }
    }

    @Test func theSubtitleRenditionAndItsCuesComeThroughTheProxy() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(.multivariant, seconds: 6).make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let master = String(decoding: try await proxy.request(proxy.proxied("/hls/master.m3u8")).body, as: UTF8.self)
            let subtitles = try #require(master.firstMatch(of: /TYPE=SUBTITLES.*URI="([^"]+)"/).map { String($0.1) })
            #expect(subtitles == "/http/127.0.0.1:\(proxy.origin.port)/hls/v0/index_vtt.m3u8")
            let playlist = String(decoding: try await proxy.request(proxy.local(String(subtitles.dropFirst()))).body, as: UTF8.self)
            let cues = playlist.split(separator: "\n").filter { $0.hasSuffix(".vtt") }
            #expect(!cues.isEmpty)
            for cue in cues {
                let answer = try await proxy.request(proxy.local(String(cue.dropFirst())))
                #expect(answer.status == 200)
                #expect(answer.body == files["v0/" + String(cue.split(separator: "/").last!)], "\(cue)")
            }
        }
    }

    @Test(arguments: [TestHLS.Shape.multivariant, .fmp4, .aes128, .singleFileTS])
    func gstreamerPlaysAShapeThroughTheProxyAndAgainOffline(_ shape: TestHLS.Shape) async throws {
        let gstreamer = try Tools.require("gst-launch-1.0")
        try await ProxyHarness.run { proxy in
            let hls = TestHLS(shape, seconds: 6)
            let files = try await hls.make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            func play() async throws -> CommandRun {
                try await CommandRun.run(
                    path: gstreamer,
                    [
                        "-q", "playbin", "uri=" + proxy.proxied("/hls/" + hls.entry),
                        "video-sink=fakesink", "audio-sink=fakesink",
                    ])
            }
            let online = try await play()
            #expect(online.status == 0, "\(online.output)\(online.errorOutput)")
            let segments = files.keys.filter { !$0.hasSuffix(".m3u8") }
            #expect(segments.allSatisfy { proxy.origin.bytesSent(for: "/hls/" + $0) <= Int64(files[$0]!.count) })
            #expect(segments.contains { proxy.origin.bytesSent(for: "/hls/" + $0) > 0 }, "the media came through the proxy")

            try await proxy.origin.stop()
            let offline = try await play()
            #expect(offline.status == 0, "offline: \(offline.output)\(offline.errorOutput)")
        }
    }

    @Test(arguments: [TestHLS.Shape.singleFileTS, .singleFileFMP4])
    func ffmpegsByteRangesTileItsSingleFileExactly(_ shape: TestHLS.Shape) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let files = try await TestHLS(shape, seconds: 6).make(in: directory.path)
        let media = try MediaPlaylist(try Playlist(parsing: try #require(files["index.m3u8"])))
        #expect(media.isFinished && media.segments.count >= 3)
        let file = try #require(files[media.segments[0].uri])
        let ranges = media.segments.compactMap(\.byteRange)
        #expect(ranges.count == media.segments.count)
        let start = media.segments[0].initSection?.byteRange?.upperBound ?? 0
        #expect(ranges.first?.lowerBound == start)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "contiguous")
        #expect(ranges.last?.upperBound == Int64(file.count), "the last range ends at the end of the file")
    }
}

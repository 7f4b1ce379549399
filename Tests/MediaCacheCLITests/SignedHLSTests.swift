import Foundation
import MediaCache
import MediaCacheServer
import MediaCacheTesting
import Testing

/// A CDN that signs every segment URI with a fresh token: with `--ignore-query`, a second
/// playback of the same presentation, signed anew, costs no segment bytes; without it, all.
@Suite(.timeLimit(.minutes(2))) struct SignedHLSTests {
    /// The origin's segment bytes a second, freshly signed playback through a server started
    /// with `arguments` costs.
    func secondPlaybackCost(_ arguments: [String]) async throws -> (first: Int64, second: Int64) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let files = try await TestHLS(.ts, seconds: 6).make(in: directory.path)
        let segments = files.keys.filter { $0.hasSuffix(".ts") }
        for path in segments { origin.serve("/hls/" + path, content: .data(files[path]!, mimeType: TestHLS.mimeType(of: path))) }
        func sign(_ token: String) {
            let playlist = String(decoding: files["index.m3u8"]!, as: UTF8.self)
                .replacingOccurrences(of: ".ts\n", with: ".ts?token=\(token)&Expires=\(token)\n")
            origin.serve("/hls/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
        }
        func segmentBytes() -> Int64 { segments.map { origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +) }
        let server = try ServeProcess.start(
            BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.appending("cache"),
            arguments + ["--playlist-max-age", "0"])
        defer { server.terminate() }
        let url = server.root + "http/127.0.0.1:\(origin.port)/hls/index.m3u8"
        let ffmpeg = try Tools.require("ffmpeg")
        func play() async throws -> String {
            let run = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-i", url, "-f", "md5", "-"])
            #expect(run.status == 0 && run.errorOutput.isEmpty, "\(run.errorOutput)")
            return run.output
        }

        sign("first")
        let firstDecode = try await play()
        let first = segmentBytes()
        sign("second")
        // The server revalidates the playlist at once (--playlist-max-age 0) and gets it signed anew.
        #expect(try await play() == firstDecode)
        #expect(origin.requests(for: "/hls/index.m3u8").count >= 2)
        #expect(server.stop().status == 0)
        try await origin.stop()
        return (first, segmentBytes() - first)
    }

    @Test func ignoredQueryParametersMakeASecondSignedPlaybackFree() async throws {
        let ignoring = try await secondPlaybackCost(["--ignore-query", "token,Expires"])
        #expect(ignoring.first > 0)
        #expect(ignoring.second == 0, "the freshly signed segments are the cached ones")
        // Each run makes its media anew, and ffmpeg's segments can differ by a packet between
        // runs: a run is compared with itself.
        let plain = try await secondPlaybackCost([])
        #expect(plain.second == plain.first, "without --ignore-query every segment is fetched again")
    }

    @Test func anIgnoredNameMustBeAName() throws {
        let run = try CommandRun.run("mediacache", ["serve", "--ignore-query", "a=b", "--cache-dir", "/tmp/unused"])
        #expect(run.status == 64)
        #expect(run.errorOutput.contains("--ignore-query"))
    }
}

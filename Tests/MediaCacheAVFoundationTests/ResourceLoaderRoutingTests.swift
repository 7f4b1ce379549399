#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheTesting
import Testing

/// Which bytes a loading request gets: those of the URL it names, a playlist found by its type
/// and content, and a cap on a superseded request that only a replacing read sets.
@Suite(.timeLimit(.minutes(2))) struct ResourceLoaderRoutingTests {
    @Test func aRequestForAnotherURLGetsThatURLsBytes() async throws {
        try await AdapterHarness.run { harness in
            harness.serve("/a.mp4", length: 50_000)
            let other = harness.origin.url("/b.mp4")
            harness.origin.serve("/b.mp4", content: .pattern(length: 70_000, seed: 29))
            let (_, player) = harness.simulator("/a.mp4")
            let caching = try #require(CachingScheme.cachingURL(for: other))
            let read = await player.issue(AVAssetResourceLoadingDataRequest(offset: 0, length: 70_000, toEnd: false), for: caching)
                .finished()
            #expect(read.loading.finishError == nil)
            #expect(Bytes(read.received) == Bytes(TestOrigin.Content.pattern(length: 70_000, seed: 29).bytes(in: 0..<70_000)))
        }
    }

    @Test func aPlaylistWithoutAnExtensionIsFoundByItsTypeAndContent() async throws {
        try await AdapterHarness.run { harness in
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nsegment0.ts\n#EXT-X-ENDLIST\n"
            harness.origin.serve("/watch/typed", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            harness.origin.serve("/watch/untyped", content: .data(Data(playlist.utf8), mimeType: "text/plain"))
            let root = try await harness.cache.startProxy().absoluteString
            for path in ["/watch/typed", "/watch/untyped"] {
                let (_, player) = harness.simulator(path)
                let (request, information) = player.contentInformation(allowed: ["public.m3u-playlist"], toEnd: true)
                let answered = await request.finished()
                #expect(answered.loading.finishError == nil, "\(path): \(String(describing: answered.loading.finishError))")
                #expect(information.contentType == "public.m3u-playlist")
                let base = root + "http/127.0.0.1:\(harness.origin.port)/watch/"
                #expect(
                    String(decoding: answered.received, as: UTF8.self)
                        == playlist.replacingOccurrences(of: "\nsegment0.ts", with: "\n\(base)segment0.ts"), "\(path)")
            }
        }
    }

    @Test func aSecondConsumerStartingBehindLeavesThePlayingRequestUncapped() async throws {
        try await AdapterHarness.run(configure: { $0.resourceLoading.supersededAllowance = 64 << 10 }) { harness in
            let file = harness.serve("/a.mp4", length: 2 << 20, bytesPerSecond: 4 << 20)
            let (_, player) = harness.simulator("/a.mp4")
            let playing = player.read(from: 0)
            await playing.bytes(300_000)
            let copy = await player.read(from: 0).finished()  // an AVPlayerLooper copy starts over
            let generator = await player.read(from: 1 << 20, length: 65_536).finished()  // an image generator's read
            #expect(Bytes(copy.received) == Bytes(file) && generator.received.count == 65_536)
            try await Self.waitUntilFinished(playing)
            #expect(Bytes(playing.received) == Bytes(file), "the playing request got every byte")
        }
    }

    @Test func aSeekingReadStillCapsTheRequestItReplaces() async throws {
        try await AdapterHarness.run(configure: { $0.resourceLoading.supersededAllowance = 64 << 10 }) { harness in
            let file = harness.serve("/a.mp4", length: 4 << 20, bytesPerSecond: 2 << 20)
            let (_, player) = harness.simulator("/a.mp4")
            let forgotten = player.read(from: 0)
            await forgotten.bytes(100_000)
            let sought = await player.read(from: 3 << 20).finished()  // a seek ahead whose cancel never came
            #expect(Bytes(sought.received) == Bytes(file.suffix(from: 3 << 20)))
            #expect(!forgotten.loading.isFinished, "capped, it stays open for AVPlayer to cancel")
            #expect(forgotten.received.count < 3 << 20)
        }
    }

    /// Returns once `request` finished; throws after ten seconds.
    private static func waitUntilFinished(_ request: ResourceLoaderSimulator.Request) async throws {
        for _ in 0..<200 where !request.loading.isFinished {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(request.loading.isFinished, "the request stalled with \(request.received.count) bytes")
    }
}
#endif

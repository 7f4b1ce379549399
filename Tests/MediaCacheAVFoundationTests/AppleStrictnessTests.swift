#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheTesting
import Testing

/// Where AVFoundation is stricter than a forgiving fake: the shim traps where Apple raises, and
/// the adapter never reaches those traps (content types, queue insertion), survives being copied
/// as AVPlayerLooper copies items, and reads requested lengths as AVPlayer sends them.
@Suite(.timeLimit(.minutes(2))) struct AppleStrictnessTests {
    @Test func theShimTrapsWhereAppleRaisesOnAContentTypeOutsideTheAllowedList() async {
        await #expect(processExitsWith: .failure) {
            let information = AVAssetResourceLoadingContentInformationRequest(allowedContentTypes: ["public.mpeg-4"])
            let request = AVAssetResourceLoadingRequest(
                url: URL(string: "mediacache+https://c.example/a")!,
                contentInformation: information, data: nil)
            request.finishLoading()  // contentType nil, the list non-empty: Apple raises
        }
        await #expect(processExitsWith: .failure) {
            let information = AVAssetResourceLoadingContentInformationRequest(allowedContentTypes: ["public.mpeg-4"])
            information.contentType = "public.mp3"
            AVAssetResourceLoadingRequest(
                url: URL(string: "mediacache+https://c.example/a")!,
                contentInformation: information, data: nil
            ).finishLoading()
        }
        await #expect(processExitsWith: .success) {
            let information = AVAssetResourceLoadingContentInformationRequest(allowedContentTypes: ["public.mpeg-4"])
            let request = AVAssetResourceLoadingRequest(
                url: URL(string: "mediacache+https://c.example/a")!,
                contentInformation: information, data: nil)
            request.finishLoading(with: URLError(.cannotDecodeContentData))  // an error is always accepted
        }
    }

    @Test func theShimTrapsWhereAppleRaisesOnInsertingAQueuedItemAgain() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let item = AVPlayerItem(asset: AVURLAsset(url: URL(string: "https://c.example/a.mp4")!))
                let player = AVQueuePlayer(items: [item])
                player.insert(item, after: nil)
            }
        }
    }

    @Test func anOriginWithNoUsableTypeFinishesTheRequestWithAnError() async throws {
        try await AdapterHarness.run { harness in
            harness.origin.serve("/blob", content: .pattern(length: 10_000, seed: 3, mimeType: "application/octet-stream"))
            let (asset, player) = harness.simulator("/blob")
            let (request, information) = player.contentInformation()
            _ = await request.finished()
            #expect(information.contentType == nil)
            let failure = try #require(request.loading.finishError as? PlaybackCacheError)
            #expect("\(failure)".contains("application/octet-stream without a file extension"))
            #expect(asset.cacheErrorLog().events.map(\.errorDomain) == ["MediaCacheAVFoundation.PlaybackCacheError"])

            let (free, unrestricted) = player.contentInformation(allowed: nil)
            _ = await free.finished()
            #expect(free.loading.finishError == nil, "without a list, no type is required")
            #expect(unrestricted.contentType == nil && unrestricted.contentLength == 10_000)
        }
    }

    @Test func anUnknownLengthIsReportedAsUnknownWithoutRangeSupport() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/live.mp4", length: 200_000)
            harness.origin.setMisbehavior(
                .init(omitsAcceptRanges: true, chunked: true, refusesRanges: true, refusesHead: true),
                for: "/live.mp4")
            let (_, player) = harness.simulator("/live.mp4")
            let (probe, information) = player.contentInformation()
            _ = await probe.finished()
            #expect(information.contentLength == -1, "NSURLResponseUnknownLength, not 0")
            #expect(!information.isByteRangeAccessSupported)
            let all = await player.read(from: 0).finished()
            #expect(all.data.requestedLength == Int.max, "AVPlayer sends Int.max while the length is unknown")
            #expect(Bytes(all.received) == Bytes(file))
        }
    }

    @Test func intMaxWithoutToEndMeansEverythingFromTheOffset() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/a.mp4", length: 300_000)
            let (_, player) = harness.simulator("/a.mp4")
            let read = await player.issue(AVAssetResourceLoadingDataRequest(offset: 100_000, length: Int.max, toEnd: false)).finished()
            #expect(read.loading.finishError == nil)
            #expect(Bytes(read.received) == Bytes(file.suffix(from: 100_000)))

            _ = await player.contentInformation().0.finished()
            let rest = await player.read(from: 250_000).finished()
            #expect(rest.data.requestedLength == 50_000, "once the length is known, a finite length to the end")
            #expect(Bytes(rest.received) == Bytes(file.suffix(from: 250_000)))
        }
    }

    @MainActor @Test func anItemCopiedAsAVPlayerLooperCopiesItPlaysThroughTheSameCache() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/loop.mp4", length: 100_000)
            let template = CachingPlayerItem(url: harness.origin.url("/loop.mp4"), cache: harness.cache)
            let copy = try #require(template.copy() as? CachingPlayerItem)
            #expect(copy !== template)
            #expect(copy.asset === template.asset, "a copy plays the same asset")
            #expect(copy.originalURL == harness.origin.url("/loop.mp4") && copy.cache === harness.cache)
            #expect(copy.automaticallyLoadedAssetKeys == ["duration"])
            let player = ResourceLoaderSimulator(try #require(copy.asset as? AVURLAsset))
            #expect(Bytes(await player.read(from: 0).finished().received) == Bytes(file))
            #expect(copy.cacheAccessLog().events.count == 1)
        }
    }

    @MainActor @Test func theSourceCompatibleInitializersKeepCaching() throws {
        let url = URL(string: "https://cdn.example/v/clip.mp4")!
        let item = CachingPlayerItem(url: url)
        #expect(item.asset is CachingURLAsset, "CachingPlayerItem(url:) caches, never AVPlayerItem(url:)")
        #expect(item.cache === PlaybackCache.shared && item.originalURL == url)

        let asset = CachingURLAsset(url: url, cache: .shared)
        let copied = CachingURLAsset(url: asset.url, options: nil)
        #expect(copied.originalURL == url, "a copy through init(url:options:) maps the caching URL back")
        #expect(copied.url == asset.url)
    }
}
#endif

#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
import MediaCacheAVFoundation

/// Plays AVPlayer's part against an asset's resource loader: issues loading requests the way
/// AVPlayer does (reference: shared/reference/avplayer-request-patterns.md), cancels them, and
/// reads what the delegate delivered.
final class ResourceLoaderSimulator {
    /// The asset, held as a player item holds it, until ``releaseAsset()``.
    private(set) var asset: AVURLAsset?
    /// The loader, kept apart from the asset so that requests in flight outlive a released asset.
    let loader: AVAssetResourceLoader
    let url: URL

    init(_ asset: AVURLAsset) {
        self.asset = asset
        loader = asset.resourceLoader
        url = asset.url
    }

    /// Drops the asset, as a player does whose item goes away mid-load.
    func releaseAsset() {
        asset = nil
    }

    /// A request the simulator made.
    struct Request: @unchecked Sendable {
        // @unchecked: the shim's request objects guard their state with locks.
        let loading: AVAssetResourceLoadingRequest
        var data: AVAssetResourceLoadingDataRequest { loading.dataRequest! }
        var received: Data { data.received }

        func finished() async -> Self {
            await loading.waitUntilFinished()
            return self
        }

        func bytes(_ count: Int) async {
            await data.waitForBytes(count)
        }
    }

    /// AVPlayer's first request: content information, with bytes 0-1.
    func contentInformation(allowed: [String]? = ["public.mpeg-4", "public.mp3", "com.apple.m4a-audio"])
        -> (Request, AVAssetResourceLoadingContentInformationRequest)
    {
        let information = AVAssetResourceLoadingContentInformationRequest(allowedContentTypes: allowed)
        let loading = AVAssetResourceLoadingRequest(url: url, contentInformation: information,
                                                    data: AVAssetResourceLoadingDataRequest(offset: 0, length: 2, toEnd: false))
        precondition(loader.issue(loading), "the delegate refused the content-information request")
        return (Request(loading: loading), information)
    }

    /// A data request for `length` bytes from `offset`, or everything to the end.
    func read(from offset: Int64, length: Int? = nil) -> Request {
        let data = AVAssetResourceLoadingDataRequest(offset: offset, length: length ?? Int.max, toEnd: length == nil)
        let loading = AVAssetResourceLoadingRequest(url: url, contentInformation: nil, data: data)
        precondition(loader.issue(loading), "the delegate refused a data request")
        return Request(loading: loading)
    }

    /// Cancels `request` as AVPlayer does: `isCancelled`, then `didCancel`.
    func cancel(_ request: Request) {
        loader.cancel(request.loading)
    }
}
#endif

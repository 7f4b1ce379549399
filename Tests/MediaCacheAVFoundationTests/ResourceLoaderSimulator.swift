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

    /// The content-information requests made: once one reported a length, AVPlayer asks for a
    /// finite `requestedLength` even when it wants everything to the end.
    private var informations: [AVAssetResourceLoadingContentInformationRequest] = []

    /// AVPlayer's first request: content information, with bytes 0-1 (or, for a playlist,
    /// everything).
    func contentInformation(
        allowed: [String]? = ["public.mpeg-4", "public.mp3", "com.apple.m4a-audio"], toEnd: Bool = false
    )
        -> (Request, AVAssetResourceLoadingContentInformationRequest)
    {
        let information = AVAssetResourceLoadingContentInformationRequest(allowedContentTypes: allowed)
        let data = AVAssetResourceLoadingDataRequest(offset: 0, length: toEnd ? Int.max : 2, toEnd: toEnd)
        let loading = AVAssetResourceLoadingRequest(url: url, contentInformation: information, data: data)
        precondition(loader.issue(loading), "the delegate refused the content-information request")
        informations.append(information)
        return (Request(loading: loading), information)
    }

    /// A data request for `length` bytes from `offset`, or everything to the end, with the
    /// `requestedLength` AVPlayer sends: the rest of the length once known, else `Int.max`.
    func read(from offset: Int64, length: Int? = nil) -> Request {
        let known = informations.last { $0.contentLength > 0 }?.contentLength
        let rest = known.map { Int(max($0 - offset, 0)) } ?? Int.max
        return issue(AVAssetResourceLoadingDataRequest(offset: offset, length: length ?? rest, toEnd: length == nil))
    }

    /// A data request exactly as given, for the asset's URL or `other` (a caching-scheme URL
    /// that a playlist served through the loader leads to).
    func issue(_ data: AVAssetResourceLoadingDataRequest, for other: URL? = nil) -> Request {
        let loading = AVAssetResourceLoadingRequest(url: other ?? url, contentInformation: nil, data: data)
        precondition(loader.issue(loading), "the delegate refused a data request")
        return Request(loading: loading)
    }

    /// Cancels `request` as AVPlayer does: `isCancelled`, then `didCancel`.
    func cancel(_ request: Request) {
        loader.cancel(request.loading)
    }
}
#endif

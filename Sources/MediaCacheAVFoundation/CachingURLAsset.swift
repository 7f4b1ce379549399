#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation

/// An `AVURLAsset` whose bytes come from a ``MediaCache``: its URL carries the
/// ``CachingScheme`` so that AVFoundation asks its resource loader, whose delegate this asset
/// keeps for as long as it lives. When the asset goes, its requests stop.
///
/// ```swift
/// let asset = CachingURLAsset(url: URL(string: "https://cdn.example/clip.mp4")!)
/// let item = AVPlayerItem(asset: asset)
/// ```
///
/// For HLS playlists use ``MediaCache/asset(for:)`` (or ``CachingPlayerItem``), which routes
/// them through the embedded proxy instead.
public final class CachingURLAsset: AVURLAsset, @unchecked Sendable {
    // @unchecked as AVURLAsset itself: every stored property is immutable and Sendable or
    // confined to the delegate's queue.

    /// The URL the bytes come from.
    public let originalURL: URL
    let loaderDelegate: ResourceLoaderDelegate

    /// An asset playing `url` (http or https) through `cache`.
    public init(url: URL, cache: MediaCache = .shared, options: [String: Any]? = nil) {
        originalURL = url
        loaderDelegate = ResourceLoaderDelegate(url: url, cache: cache)
        super.init(url: CachingScheme.cachingURL(for: url) ?? url, options: options)
        resourceLoader.setDelegate(loaderDelegate, queue: loaderDelegate.queue)
    }

    deinit {
        loaderDelegate.cancelAll()
    }

    /// Stops every request of this asset, finishing open ones with `URLError(.cancelled)`.
    public func cancelLoading() {
        loaderDelegate.cancelAll()
    }

    /// Every loading request served so far, like `AVPlayerItem.accessLog()`.
    public func cacheAccessLog() -> MediaCacheAccessLog {
        loaderDelegate.log.access
    }

    /// Every loading request that failed, like `AVPlayerItem.errorLog()`.
    public func cacheErrorLog() -> MediaCacheErrorLog {
        loaderDelegate.log.errors
    }
}

extension MediaCache {
    /// The asset that plays `url` through this cache: a ``CachingURLAsset`` for progressive
    /// media, or for an HLS playlist (`.m3u8`) a plain `AVURLAsset` of the embedded loopback
    /// proxy, because AVPlayer does not send segment requests to a resource loader. Should the
    /// proxy fail to start, the playlist plays from the origin, uncached.
    public func asset(for url: URL, options: [String: Any]? = nil) -> AVURLAsset {
        guard ContentTypes.isPlaylist(url) else { return CachingURLAsset(url: url, cache: self, options: options) }
        return AVURLAsset(url: proxyURLWaiting(for: url) ?? url, options: options)
    }
}

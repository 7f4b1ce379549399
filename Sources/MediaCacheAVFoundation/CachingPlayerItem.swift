#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation

/// An `AVPlayerItem` that plays through MediaCache: bytes already cached start at once (also
/// offline), the rest streams from the origin and is kept.
///
/// ```swift
/// let player = AVPlayer(playerItem: CachingPlayerItem(url: videoURL))
/// player.automaticallyWaitsToMinimizeStalling = false   // Apple's advice when a loader feeds bytes
/// player.play()
/// ```
///
/// Making an item never waits: HLS playlists play through the embedded loopback proxy, which
/// starts in the background (see ``MediaCache/asset(for:options:)``).
///
/// The item has no state of its own: everything lives on its ``CachingURLAsset``. It keeps
/// `AVPlayerItem`'s designated initializer, through which AVFoundation copies items
/// (`NSCopying`, `AVPlayerLooper`); a copy plays through the same asset and cache.
public final class CachingPlayerItem: AVPlayerItem {
    /// An item playing `url` through `cache`. Like `AVPlayerItem(asset:)`, it loads `duration`
    /// automatically unless other keys are given.
    public convenience init(url: URL, cache: MediaCache = .shared, automaticallyLoadedAssetKeys: [String]? = ["duration"]) {
        self.init(asset: cache.asset(for: url), automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys)
    }

    /// An item playing `url` through ``MediaCache/shared``: `CachingPlayerItem(url:)` caches,
    /// rather than reaching `AVPlayerItem(url:)`.
    public convenience init(url: URL) {
        self.init(url: url, cache: .shared)
    }

    /// The caching asset, or `nil` for an item made over another asset.
    private var cachingAsset: CachingURLAsset? { asset as? CachingURLAsset }

    /// The URL the bytes come from; `nil` for an item made over another asset.
    public var originalURL: URL? { cachingAsset?.originalURL }

    /// The cache it plays through; `nil` for an item made over another asset.
    public var cache: MediaCache? { cachingAsset?.cache }

    /// Stops loading: every open request of the item's asset ends. For an item that will not
    /// play (such as one taken out of a queue); ``CachingQueueController`` calls it.
    public func cancelLoading() {
        cachingAsset?.cancelLoading()
    }

    /// The item's loading requests served so far, like `accessLog()`; for HLS the playlist
    /// request, the proxy's access log has the rest.
    public func cacheAccessLog() -> MediaCacheAccessLog {
        cachingAsset?.cacheAccessLog() ?? MediaCacheAccessLog(events: [])
    }

    /// The item's failed loading requests, like `errorLog()`.
    public func cacheErrorLog() -> MediaCacheErrorLog {
        cachingAsset?.cacheErrorLog() ?? MediaCacheErrorLog(events: [])
    }
}

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
/// HLS playlists play through the embedded loopback proxy (see ``MediaCache/asset(for:options:)``).
public final class CachingPlayerItem: AVPlayerItem {
    /// The URL the bytes come from.
    public let originalURL: URL
    /// The cache it plays through.
    public let cache: MediaCache

    /// An item playing `url` through `cache`.
    public init(url: URL, cache: MediaCache = .shared, automaticallyLoadedAssetKeys: [String]? = nil) {
        originalURL = url
        self.cache = cache
        super.init(asset: cache.asset(for: url), automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys)
    }

    /// Stops loading: every open request of the item's asset ends. For an item that will not
    /// play (such as one taken out of a queue); ``CachingQueueController`` calls it.
    public func cancelLoading() {
        (asset as? CachingURLAsset)?.cancelLoading()
    }

    /// The item's loading requests served so far, like `accessLog()`; empty for HLS, whose
    /// requests the proxy's access log records.
    public func cacheAccessLog() -> MediaCacheAccessLog {
        (asset as? CachingURLAsset)?.cacheAccessLog() ?? MediaCacheAccessLog(events: [])
    }

    /// The item's failed loading requests, like `errorLog()`.
    public func cacheErrorLog() -> MediaCacheErrorLog {
        (asset as? CachingURLAsset)?.cacheErrorLog() ?? MediaCacheErrorLog(events: [])
    }
}

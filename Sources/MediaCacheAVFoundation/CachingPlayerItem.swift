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
/// starts in the background (see ``PlaybackCache/asset(for:options:headers:)``).
///
/// The item has no state of its own: everything lives on its ``CachingURLAsset``. It keeps
/// `AVPlayerItem`'s designated initializer, through which AVFoundation copies items
/// (`NSCopying`, `AVPlayerLooper`); a copy plays through the same asset and cache.
public final class CachingPlayerItem: AVPlayerItem {
    /// An item playing `url` through ``PlaybackCache/shared``: `CachingPlayerItem(url:)` caches,
    /// rather than reaching `AVPlayerItem(url:)`. Callable from any thread, as Apple's
    /// `AVPlayerItem(url:)` is (`NS_SWIFT_NONISOLATED`; this initializer overrides it, so it
    /// must be nonisolated too).
    public nonisolated convenience init(url: URL) {
        self.init(url: url, cache: .shared)
    }

    /// An item playing `url` through `cache`, loading `duration` automatically like
    /// `AVPlayerItem(asset:)`; callable from any thread, through AVFoundation's nonisolated
    /// initializer for a Sendable asset.
    public nonisolated convenience init(url: URL, cache: PlaybackCache) {
        self.init(asset: cache.asset(for: url))
    }

    /// An item playing `url` through `cache` whose origin requests carry `headers`, such as an
    /// authorization (see ``PlaybackCache/asset(for:options:headers:)``); callable from any thread.
    public nonisolated convenience init(url: URL, cache: PlaybackCache = .shared, headers: [String: String]) {
        self.init(asset: cache.asset(for: url, headers: headers))
    }

    /// An item playing `url` through `cache` that loads `automaticallyLoadedAssetKeys` (such as
    /// `[]` to load nothing before it plays). On the main actor, as `AVPlayerItem`'s designated
    /// initializer is.
    public convenience init(url: URL, cache: PlaybackCache = .shared, automaticallyLoadedAssetKeys: [String]?) {
        self.init(asset: cache.asset(for: url), automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys)
    }

    /// The caching asset, or `nil` for an item made over another asset.
    private var cachingAsset: CachingURLAsset? { asset as? CachingURLAsset }

    /// The URL the bytes come from; `nil` for an item made over another asset.
    public var originalURL: URL? { cachingAsset?.originalURL }

    /// The cache it plays through; `nil` for an item made over another asset.
    public var cache: PlaybackCache? { cachingAsset?.cache }

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

#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
import MediaCacheHLS

/// An `AVURLAsset` whose bytes come from a ``PlaybackCache``: its URL carries the
/// ``CachingScheme`` so that AVFoundation asks its resource loader, whose delegate this asset
/// keeps for as long as it lives. When the asset goes, its requests stop.
///
/// ```swift
/// let asset = CachingURLAsset(url: URL(string: "https://cdn.example/clip.mp4")!)
/// let item = AVPlayerItem(asset: asset)
/// ```
///
/// An HLS playlist (`.m3u8`) is answered through the embedded loopback proxy: the delegate
/// waits for the proxy, then answers the playlist with every URI on the proxy, from which the
/// player fetches the rest over http.
public final class CachingURLAsset: AVURLAsset, @unchecked Sendable {
    // @unchecked as AVURLAsset itself: every stored property is immutable and Sendable or
    // confined to the delegate's queue.

    /// The URL the bytes come from.
    public let originalURL: URL
    let loaderDelegate: ResourceLoaderDelegate

    /// An asset playing `url` (http or https) through `cache`. Its origin requests carry
    /// `headers`, and the cookies, user agent and header fields its `options` name (see
    /// ``PlaybackCache/asset(for:options:headers:)``).
    public init(url: URL, cache: PlaybackCache, options: [String: Any]? = nil, headers: [String: String] = [:]) {
        let sent = AssetRequestHeaders.headers(options: options, given: headers)
        if !sent.isEmpty { cache.headers.set(sent, forServerOf: url) }
        originalURL = url
        loaderDelegate = ResourceLoaderDelegate(cache: cache)
        super.init(url: CachingScheme.cachingURL(for: url) ?? url, options: options)
        resourceLoader.setDelegate(loaderDelegate, queue: loaderDelegate.queue)
    }

    /// An asset playing `url` through ``PlaybackCache/shared``. A caching-scheme URL (the `url` of
    /// another caching asset, as a copy made through this initializer passes it) is mapped back
    /// to its origin, so that the copy caches too.
    public override convenience init(url: URL, options: [String: Any]? = nil) {
        self.init(url: CachingScheme.originalURL(for: url) ?? url, cache: .shared, options: options)
    }

    deinit {
        loaderDelegate.cancelAll()
    }

    /// The cache the asset plays through.
    public var cache: PlaybackCache { loaderDelegate.cache }

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

extension PlaybackCache {
    /// The asset that plays `url` through this cache, made at once, without waiting for
    /// anything. For an HLS playlist it also starts the embedded proxy in the background.
    ///
    /// Its origin requests carry what an `AVURLAsset` would send for `options`
    /// (`AVURLAssetHTTPCookiesKey`, `AVURLAssetHTTPUserAgentKey`, `AVURLAssetHTTPHeaderFieldsKey`)
    /// and `headers`, over them: to the server of `url`, so that an HLS asset's playlists,
    /// keys and segments there get them too (see ``headers``). They never change which cached
    /// bytes the asset plays.
    ///
    /// ```swift
    /// let asset = PlaybackCache.shared.asset(for: filmURL, headers: ["Authorization": "Bearer \(token)"])
    /// ```
    public func asset(for url: URL, options: [String: Any]? = nil, headers: [String: String] = [:]) -> CachingURLAsset {
        if PlaylistDetection.hasPlaylistExtension(url) { startProxyInBackground() }
        return CachingURLAsset(url: url, cache: self, options: options, headers: headers)
    }
}

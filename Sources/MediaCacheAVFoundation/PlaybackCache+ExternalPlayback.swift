#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation

// `isExternalPlaybackActive` exists on iOS, tvOS and macOS (and Mac Catalyst), not on visionOS.
#if !os(visionOS) && !os(watchOS)
extension PlaybackCache {
    /// The item that plays `url` on `player`: through this cache, or, while the player shows
    /// video on an external screen (AirPlay video, `isExternalPlaybackActive`), an item of the
    /// original URL, because the receiver fetches the media itself and cannot reach the app's
    /// loopback proxy or custom scheme.
    ///
    /// ```swift
    /// player.replaceCurrentItem(with: PlaybackCache.shared.item(for: url, on: player))
    /// // and again from an observer of `isExternalPlaybackActive`, at the current time
    /// ```
    public nonisolated func item(for url: URL, on player: AVPlayer) -> AVPlayerItem {
        player.isExternalPlaybackActive ? AVPlayerItem(url: url) : CachingPlayerItem(url: url, cache: self)
    }
}
#endif

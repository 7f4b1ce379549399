import Foundation
import MediaCache
import MediaCacheHLS

/// How the proxy answers a proxied resource: its bytes as they are, or, for an HLS playlist,
/// the playlist rewritten so that every URI a player follows goes through the proxy. The one
/// place that decides it, so that no answer branches inside the byte path.
enum ProxiedAnswer: Equatable {
    case bytes
    case playlist

    /// The answer for `origin`, which the origin describes as `info` (see
    /// ``PlaylistDetection/isPlaylist(_:info:loader:purpose:)``).
    static func kind(for origin: URL, info: ContentInfo, loader: MediaLoader) async -> ProxiedAnswer {
        await PlaylistDetection.isPlaylist(origin, info: info, loader: loader) ? .playlist : .bytes
    }
}

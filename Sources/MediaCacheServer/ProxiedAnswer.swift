import Foundation
import MediaCache
import MediaCacheHLS

/// How the proxy answers a proxied resource: its bytes as they are, or, for an HLS playlist,
/// the playlist rewritten so that every URI a player follows goes through the proxy. The one
/// place that decides it, so that no answer branches inside the byte path.
enum ProxiedAnswer: Equatable {
    case bytes
    case playlist

    /// The media types of HLS playlists (RFC 8216 §4; compared without case and parameters).
    static let playlistTypes: Set<String> = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl",
    ]

    /// Types that say nothing of the content, whose first bytes decide.
    static let genericTypes: Set<String> = ["text/plain", "application/octet-stream", "binary/octet-stream"]

    /// The answer for `origin`, which the origin describes as `info`: a playlist by its media
    /// type, by a `.m3u8`/`.m3u` path, or, for a small resource of a generic type, by an
    /// `#EXTM3U` first line (read through `loader`, so cached like any bytes).
    static func kind(for origin: URL, info: ContentInfo, loader: MediaLoader) async -> ProxiedAnswer {
        let type = info.mimeType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let type, playlistTypes.contains(type) { return .playlist }
        if ["m3u8", "m3u"].contains(origin.pathExtension.lowercased()) { return .playlist }
        guard type.map(genericTypes.contains) ?? true, let length = info.totalLength, length >= 7,
              length <= Playlist.maximumSize else { return .bytes }
        var head = Data()
        do {
            for try await chunk in loader.read(origin, ByteRequest(offset: 0, length: 7)) { head.append(chunk.bytes) }
        } catch {
            return .bytes
        }
        return head == Data("#EXTM3U".utf8) ? .playlist : .bytes
    }
}

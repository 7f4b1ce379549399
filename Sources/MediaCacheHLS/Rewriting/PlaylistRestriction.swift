import Foundation

/// A multivariant playlist cut down to the media playlists that can be played, so that a player
/// offline never asks for a variant or rendition that was not downloaded.
public enum PlaylistRestriction {
    /// `playlist` without the variants (`EXT-X-STREAM-INF` and its URI line), I-frame variants
    /// and renditions whose playlist URL, resolved against `base`, `keeps` refuses. Renditions
    /// carried in the variant's own stream (no `URI`) stay. A playlist left without any variant
    /// is answered as it was, so that the player reports what is missing.
    ///
    /// ```swift
    /// let offline = PlaylistRestriction.restricted(master, base: url) { downloaded.contains($0) }
    /// ```
    public static func restricted(_ playlist: Playlist, base: URL, keeping keeps: (URL) -> Bool) -> Playlist {
        let resolver = URIResolver(base: base)
        let variables = PlaylistRewriter.definitions(in: playlist)
        func kept(_ uri: String) -> Bool {
            resolver.resolve(PlaylistRewriter.substitute(variables, in: uri)).map(keeps) ?? false
        }
        var lines: [Playlist.Line] = []
        var droppingVariant = false
        var variants = 0
        for line in playlist.lines {
            switch line {
            case .tag(let tag) where tag.name == "EXT-X-STREAM-INF":
                droppingVariant = true
                lines.append(line)
            case .uri(let uri) where droppingVariant:
                droppingVariant = false
                if kept(uri) {
                    variants += 1
                    lines.append(line)
                } else {
                    lines.removeLast()
                }
            case .tag(let tag) where tag.name == "EXT-X-MEDIA" || tag.name == "EXT-X-I-FRAME-STREAM-INF":
                if let uri = tag.attributes?["URI"], !kept(uri) { continue }
                lines.append(line)
            default:
                lines.append(line)
            }
        }
        return variants > 0 ? Playlist(lines: lines) : playlist
    }
}

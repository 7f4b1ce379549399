import Foundation

/// A multivariant playlist cut down to the media playlists that can be played, so that a player
/// offline never asks for a variant or rendition that was not downloaded.
public enum PlaylistRestriction {
    /// `playlist` without the variants (`EXT-X-STREAM-INF` and its URI line), I-frame variants
    /// and renditions whose playlist URL, resolved against `base`, `keeps` refuses. Renditions
    /// carried in the variant's own stream (no `URI`) stay; a variant's reference to a group
    /// left without any rendition is removed. A playlist left without any variant is answered
    /// as it was, so that the player reports what is missing.
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
        return variants > 0 ? Playlist(lines: Self.withExistingGroups(lines)) : playlist
    }

    /// The attributes by which a variant names a rendition group, each named as the
    /// `EXT-X-MEDIA` `TYPE` of the group's renditions.
    private static let groupAttributes = ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"]

    /// `lines` with every variant's `AUDIO`, `VIDEO`, `SUBTITLES` and `CLOSED-CAPTIONS`
    /// attribute naming a group that some `EXT-X-MEDIA` of `lines` has, or removed: a player
    /// refuses a variant whose group is missing. `CLOSED-CAPTIONS=NONE` stays.
    static func withExistingGroups(_ lines: [Playlist.Line]) -> [Playlist.Line] {
        var groups = Set<String>()
        for case .tag(let tag) in lines where tag.name == "EXT-X-MEDIA" {
            if let type = tag.attributes?["TYPE"], let id = tag.attributes?["GROUP-ID"] { groups.insert(type + "\u{0}" + id) }
        }
        return lines.map { line in
            guard case .tag(var tag) = line, tag.name == "EXT-X-STREAM-INF" || tag.name == "EXT-X-I-FRAME-STREAM-INF",
                var attributes = tag.attributes
            else { return line }
            for attribute in groupAttributes {
                guard let group = attributes[attribute] else { continue }
                let isNone =
                    attribute == "CLOSED-CAPTIONS" && group == "NONE"
                    && attributes.attributes.contains {
                        $0.name == attribute && !$0.isQuoted
                    }
                if !isNone, !groups.contains(attribute + "\u{0}" + group) { attributes[attribute] = nil }
            }
            tag.attributes = attributes
            return .tag(tag)
        }
    }
}

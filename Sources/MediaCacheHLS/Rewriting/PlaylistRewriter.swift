import Foundation

/// Rewrites every URI a player can follow in a playlist: URI lines and the URI attributes of
/// keys, session keys, init sections, renditions, I-frame variants, parts, preload hints,
/// rendition reports, session data and content steering. Each is resolved against the
/// playlist's URL and handed to `route`, whose answer replaces it.
///
/// ```swift
/// let rewritten = PlaylistRewriter.rewritten(playlist, base: playlistURL) { origin in
///     ProxyURL.path(for: origin)     // "/https/cdn.example/v/seg1.ts"
/// }
/// ```
public enum PlaylistRewriter {
    /// The attributes that hold a URI, per tag.
    public static let uriAttributes: [String: String] = [
        "EXT-X-KEY": "URI", "EXT-X-SESSION-KEY": "URI", "EXT-X-MAP": "URI", "EXT-X-MEDIA": "URI",
        "EXT-X-I-FRAME-STREAM-INF": "URI", "EXT-X-PART": "URI", "EXT-X-PRELOAD-HINT": "URI",
        "EXT-X-RENDITION-REPORT": "URI", "EXT-X-SESSION-DATA": "URI", "EXT-X-CONTENT-STEERING": "SERVER-URI",
    ]

    /// `playlist` with each URI replaced by `route` of its absolute URL. A URI that does not
    /// resolve (a variable this playlist does not define, text that is no URI) or that `route`
    /// answers `nil` for (such as `skd://` keys) is kept as it is. Variables defined in the
    /// playlist (`EXT-X-DEFINE` with `NAME` and `VALUE`) are substituted first.
    public static func rewritten(_ playlist: Playlist, base: URL, route: (URL) -> String?) -> Playlist {
        let variables = definitions(in: playlist)
        let resolver = URIResolver(base: base)
        func replacement(_ uri: String) -> String? {
            let substituted = substitute(variables, in: uri)
            guard !substituted.contains("{$"), let url = resolver.resolve(substituted) else { return nil }
            return route(url)
        }
        var result = playlist
        for index in result.lines.indices {
            switch result.lines[index] {
            case .uri(let uri):
                if let routed = replacement(uri) { result.lines[index] = .uri(routed) }
            case .tag(var tag):
                guard let name = uriAttributes[tag.name], let uri = tag.attributes?[name], let routed = replacement(uri) else { continue }
                tag.attributes?[name] = routed
                result.lines[index] = .tag(tag)
            case .comment, .blank:
                continue
            }
        }
        return result
    }

    /// The `NAME`/`VALUE` variables a playlist defines.
    static func definitions(in playlist: Playlist) -> [String: String] {
        var variables: [String: String] = [:]
        for tag in playlist.tags(named: "EXT-X-DEFINE") {
            if let name = tag.attributes?["NAME"], let value = tag.attributes?["VALUE"] { variables[name] = value }
        }
        return variables
    }

    /// `text` with each `{$NAME}` of `variables` replaced by its value.
    static func substitute(_ variables: [String: String], in text: String) -> String {
        guard text.contains("{$") else { return text }
        return variables.reduce(text) { text, variable in text.replacingOccurrences(of: "{$\(variable.key)}", with: variable.value) }
    }
}

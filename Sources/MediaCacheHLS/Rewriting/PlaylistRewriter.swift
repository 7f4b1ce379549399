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
    /// resolve (text that is no URI) or that `route` answers `nil` for (such as `skd://` keys)
    /// is kept as it is.
    ///
    /// Variable references (`{$name}`, RFC 8216bis §4.3) stay in the routed URI for the player
    /// to substitute, whatever defines them (`VALUE`, `QUERYPARAM`, or `IMPORT` from a
    /// multivariant playlist the proxy may never see): each is resolved and routed as a
    /// stand-in, then put back. A URI that starts with one may be absolute; it is resolved with
    /// the values this playlist defines, and kept as it is when they are not all there.
    public static func rewritten(_ playlist: Playlist, base: URL, route: (URL) -> String?) -> Playlist {
        let variables = definitions(in: playlist, base: base)
        let resolver = URIResolver(base: base)
        func replacement(_ uri: String) -> String? {
            guard uri.contains("{$") else { return resolver.resolve(uri).flatMap(route) }
            if uri.hasPrefix("{$") {
                let substituted = substitute(variables, in: uri)
                guard !substituted.contains("{$"), let url = resolver.resolve(substituted) else { return nil }
                return route(url)
            }
            let (standIn, references) = standingIn(uri)
            guard let url = resolver.resolve(standIn), let routed = route(url) else { return nil }
            return references.reduce(routed) { text, reference in text.replacingOccurrences(of: reference.standIn, with: reference.text) }
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

    /// `uri` with each variable reference replaced by a stand-in that URL parsing and routing
    /// leave as it is (lower-case letters and digits), and the references with their stand-ins.
    private static func standingIn(_ uri: String) -> (String, [(text: String, standIn: String)]) {
        var text = uri
        var references: [(text: String, standIn: String)] = []
        while let start = text.range(of: "{$"), let end = text[start.upperBound...].firstIndex(of: "}") {
            let reference = String(text[start.lowerBound...end])
            var standIn = "mcvar\(references.count)x"
            while uri.contains(standIn) { standIn += "x" }
            references.append((reference, standIn))
            text = text.replacingOccurrences(of: reference, with: standIn)
        }
        return (text, references)
    }

    /// The variables a playlist defines itself: `NAME` with `VALUE`, and `QUERYPARAM` with the
    /// value of that query parameter of the playlist's URL, `base`, when given. `IMPORT` comes
    /// from a multivariant playlist and is not among them.
    static func definitions(in playlist: Playlist, base: URL? = nil) -> [String: String] {
        var variables: [String: String] = [:]
        let query = base.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        for tag in playlist.tags(named: "EXT-X-DEFINE") {
            if let name = tag.attributes?["NAME"], let value = tag.attributes?["VALUE"] {
                variables[name] = value
            } else if let name = tag.attributes?["QUERYPARAM"], let value = query.first(where: { $0.name == name })?.value {
                variables[name] = value
            }
        }
        return variables
    }

    /// `text` with each `{$NAME}` of `variables` replaced by its value.
    static func substitute(_ variables: [String: String], in text: String) -> String {
        guard text.contains("{$") else { return text }
        return variables.reduce(text) { text, variable in text.replacingOccurrences(of: "{$\(variable.key)}", with: variable.value) }
    }
}

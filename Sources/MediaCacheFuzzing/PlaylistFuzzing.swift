import Foundation
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheServer

/// The playlist laws: whatever parses is written back to text that parses to the same
/// playlist; reading it as a media or multivariant playlist never traps; the proxy's rewrite
/// of it parses back unchanged, and every URI it routed maps back to the origin URL it came
/// from, up to what an origin cannot tell apart.
enum PlaylistFuzzing {
    /// The playlist's own URL, against which relative URIs resolve.
    static let base = URL(string: "https://cdn.example/v/index.m3u8")!

    static func check(_ input: Data) -> FuzzFailure? {
        guard let playlist = try? Playlist(parsing: input) else { return nil }
        if let failure = roundTrip(playlist, "parsed") { return failure }
        _ = try? MediaPlaylist(playlist)
        _ = try? MultivariantPlaylist(playlist)

        var routed: [(origin: URL, path: String)] = []
        let rewritten = PlaylistRewriter.rewritten(playlist, base: base) { origin in
            let path = ProxyURL.path(for: origin)
            if let path { routed.append((origin, path)) }
            return path
        }
        guard rewritten.lines.count == playlist.lines.count else {
            return FuzzFailure("the rewrite has \(rewritten.lines.count) lines, the playlist \(playlist.lines.count)")
        }
        if let failure = roundTrip(rewritten, "rewritten") { return failure }
        for (origin, path) in routed {
            guard let back = try? ProxyURL.origin(forTarget: path) else {
                return FuzzFailure("\(origin.absoluteString) was routed to \(path), which is no proxy path")
            }
            guard normalized(back) == normalized(origin) else {
                return FuzzFailure("\(origin.absoluteString) was routed to \(path), which maps back to \(back.absoluteString)")
            }
        }
        return nil
    }

    /// `url` as the origin sees the request (RFC 3986 §6.2.2 and §6.2.3, RFC 9110 §4.2.3): the
    /// scheme in lower case, one spelling per port (an empty one is the scheme's default), an
    /// empty path as `/`, without the fragment, which stays with the client.
    private static func normalized(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.scheme = components.scheme?.lowercased()
        components.port = components.port
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// Whether `playlist` written as text parses back to itself.
    private static func roundTrip(_ playlist: Playlist, _ stage: String) -> FuzzFailure? {
        let text = playlist.text
        do {
            let reparsed = try Playlist(parsing: text)
            guard reparsed == playlist else {
                let first = zip(reparsed.lines, playlist.lines).first { $0 != $1 }
                return FuzzFailure(
                    "the \(stage) playlist's text parses differently: \(first.map { "\($0.1) became \($0.0)" } ?? "\(playlist.lines.count) lines became \(reparsed.lines.count)")"
                )
            }
            return nil
        } catch {
            return FuzzFailure("the \(stage) playlist's text does not parse: \(error)\n\(text)")
        }
    }
}

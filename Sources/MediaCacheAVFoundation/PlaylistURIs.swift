import Foundation

/// Makes every URI of an HLS playlist absolute, so that a player that fetched the playlist
/// through a custom-scheme URL resolves none of them against that URL: it then fetches
/// variants, renditions, keys and segments itself, over http.
enum PlaylistURIs {
    /// `playlist` with each URI line and each `URI="…"` attribute resolved against `base`.
    static func absolutized(_ playlist: String, against base: URL) -> String {
        playlist.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { return String(line) }
            if text.hasPrefix("#") {
                return String(line).replacing(/URI="([^"]*)"/) { match in
                    "URI=\"" + resolve(String(match.1), against: base) + "\""
                }
            }
            return resolve(text, against: base)
        }.joined(separator: "\n")
    }

    private static func resolve(_ reference: String, against base: URL) -> String {
        URL(string: reference, relativeTo: base)?.absoluteString ?? reference
    }
}

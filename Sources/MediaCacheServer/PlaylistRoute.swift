import Foundation
import MediaCacheAPI

/// The proxy paths of a playlist's URIs. A URI on the playlist's own origin (nearly every
/// segment) maps by swapping its `scheme://authority` for the proxy path of that origin, with
/// no parsing; any other goes through ``ProxyURL/path(for:)``.
struct PlaylistRoute {
    /// `/t/<token>` or nothing.
    private let tokenPrefix: String
    /// The playlist's `scheme://authority`, as the resolved URIs spell it.
    private let origin: String?
    /// The proxy path of that origin, with the token prefix: `/t/x/https/cdn.example:8443`.
    private let proxiedOrigin: String?

    init(playlist: URL, token: String?) {
        tokenPrefix = token.map { "/t/\($0)" } ?? ""
        let text = playlist.absoluteString
        guard let scheme = text.range(of: "://"),
            let root = text[scheme.upperBound...].firstIndex(of: "/"),
            let rootURL = URL(string: String(text[..<root]) + "/"),
            let rootPath = ProxyURL.path(for: rootURL)
        else {
            origin = nil
            proxiedOrigin = nil
            return
        }
        origin = String(text[..<root])
        proxiedOrigin = tokenPrefix + rootPath.dropLast()
    }

    /// The proxy path that plays `url`, or `nil` when the proxy does not fetch such URLs.
    func path(for url: URL) -> String? {
        let text = url.absoluteString
        if let origin, let proxiedOrigin, text.hasPrefix(origin), !text.contains("#") {
            let rest = text.dropFirst(origin.count)
            if rest.hasPrefix("/") { return proxiedOrigin + rest }
        }
        return ProxyURL.path(for: url).map { tokenPrefix + $0 }
    }
}

import Foundation

/// Headers an app adds to the requests it makes of some servers: an asset's cookies, user
/// agent or authorization, given when the asset is made.
///
/// Kept per server (scheme, host and port), so that an HLS asset's playlists, keys and
/// segments on the server of its playlist get them too; the headers given last for a server
/// are the ones sent. They change what is sent, never a resource's cache key.
///
/// ```swift
/// let headers = OriginHeaders()
/// headers.set(["Authorization": "Bearer \(token)"], forServerOf: filmURL)
/// let origin = URLSessionOrigin(session: appSession, headers: headers)   // or HTTPOrigin's serverHeaders
/// ```
public final class OriginHeaders: Sendable {
    private let byServer = Locked<[String: [String: String]]>([:])

    /// A registry without headers.
    public init() {}

    /// Sends `headers` with every request to `url`'s server from now on, in place of those
    /// set for it before; an empty dictionary sends none.
    public func set(_ headers: [String: String], forServerOf url: URL) {
        guard let server = Self.server(of: url) else { return }
        byServer.withLock { $0[server] = headers.isEmpty ? nil : headers }
    }

    /// The headers to send with a request for `url`.
    public func headers(for url: URL) -> [String: String] {
        // Every origin request asks; without headers, it costs a look under the lock.
        let all = byServer.withLock { $0 }
        guard !all.isEmpty, let server = Self.server(of: url) else { return [:] }
        return all[server] ?? [:]
    }

    /// `scheme://host:port`, lowercased, with the scheme's default port when none is given.
    private static func server(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }
}

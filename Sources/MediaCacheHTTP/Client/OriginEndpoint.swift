import Foundation
import NIOHTTP1

/// Where a URL's requests connect to: scheme, host and port. Connections are kept and reused
/// per endpoint.
struct OriginEndpoint: Hashable, Sendable {
    let isTLS: Bool
    /// The host as the URL spells it, in lower case, without an IPv6 literal's brackets.
    let host: String
    let port: Int

    /// `url`'s endpoint; `nil` unless it is an `http` or `https` URL with a host.
    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = url.host(percentEncoded: true), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // One endpoint however the host is cased (RFC 3986 §6.2.2.1): one pool of connections,
        // and a redirect to `CDN.example` keeps the credentials meant for `cdn.example`.
        if host.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { host = host.lowercased() }
        isTLS = scheme == "https"
        self.host = host
        port = url.port ?? (isTLS ? 443 : 80)
    }

    /// The `Host` header's value: the port only when it is not the scheme's own.
    var hostHeader: String {
        let name = isIPv6 ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Whether the host is an IP address literal, which TLS's server name may not carry.
    var isAddressLiteral: Bool {
        isIPv6 || host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Whether the host is an IPv6 address, read byte by byte rather than by Foundation's
    /// `contains` for strings, on every miss.
    private var isIPv6: Bool { host.utf8.contains(UInt8(ascii: ":")) }

    /// `url`'s request target: its path, never empty, and its query.
    static func requestTarget(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        let target = path.isEmpty ? "/" : path
        guard let query = url.query(percentEncoded: true) else { return target }
        return target + "?" + query
    }
}

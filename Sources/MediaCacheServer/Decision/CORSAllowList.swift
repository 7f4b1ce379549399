import Foundation
import HTTPTypes

/// The web pages whose scripts may read the proxy's answers (CORS, the Fetch standard): a
/// JavaScript player on a page of one of these origins (hls.js, Video.js, Shaka, dash.js)
/// fetches playlists and segments through the proxy; a page of any other origin gets answers
/// without CORS fields, which its browser keeps from its scripts.
///
/// The list is the trade-off: with CORS open to every origin, any page the user visits could
/// read any URL through the proxy (an intranet's included) and what the cache holds. Name the
/// origins of the app's own pages, and no others.
///
/// ```swift
/// configuration.cors = try CORSAllowList(["https://app.example", "http://localhost:3000"])
/// ```
public struct CORSAllowList: Sendable, Hashable {
    /// The allowed origins, as browsers send them in `Origin`: `https://app.example`.
    public let origins: Set<String>

    /// An allow-list of `origins`, each a scheme, a host and an optional port
    /// (`https://app.example:8443`), compared as browsers write them (lower case, without the
    /// scheme's default port).
    ///
    /// - Throws: ``CORSAllowListError`` naming an entry that is no web origin.
    public init(_ origins: [String]) throws(CORSAllowListError) {
        var normalized = Set<String>()
        for origin in origins {
            guard let text = Self.normalized(origin) else { throw CORSAllowListError(origin: origin) }
            normalized.insert(text)
        }
        self.origins = normalized
    }

    /// Whether the page of `origin` (an `Origin` header's value) may read answers.
    public func allows(_ origin: String) -> Bool {
        Self.normalized(origin).map(origins.contains) ?? false
    }

    /// `scheme://host[:port]` in lower case without the scheme's default port; `nil` for what is
    /// no http(s) origin (a path, a query, credentials, `null`).
    static func normalized(_ origin: String) -> String? {
        guard let components = URLComponents(string: origin), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty,
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    /// The fields of every answer to a page this list allows.
    func fields(for origin: String) -> HTTPFields {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accessControlAllowOrigin, value: origin))
        fields.append(HTTPField(name: .vary, value: "Origin"))
        fields.append(HTTPField(name: .accessControlExposeHeaders, value: "Content-Range, Content-Length, Accept-Ranges, Age"))
        return fields
    }

    /// The fields of the answer to a preflight: the methods and request fields a player uses,
    /// the proxy's token among them.
    static let preflightFields: HTTPFields = [
        .accessControlAllowMethods: "GET, HEAD",
        .accessControlAllowHeaders: "Range, If-Range, Authorization, X-MediaCache-Token",
        .accessControlMaxAge: "600",
    ]
}

/// An entry of a ``CORSAllowList`` that is no web origin.
public struct CORSAllowListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry.
    public var origin: String

    public var description: String {
        "'\(origin)' is not a web origin: give a scheme, a host and an optional port, such as https://app.example"
    }
}

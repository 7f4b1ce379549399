import Foundation
import MediaCache

/// The proxy's URL form for an origin URL:
/// `http://HOST:PORT/<scheme>/<authority>/<path>?<query>`.
///
/// ```swift
/// let proxy = ProxyURL(host: "127.0.0.1", port: 8080)
/// proxy.url(for: URL(string: "https://cdn.example/v/clip.mp4?t=1")!)
/// // http://127.0.0.1:8080/https/cdn.example/v/clip.mp4?t=1
/// ```
///
/// The path ends with the original file name and extension, which players sniff. A relative
/// URI inside a playlist (`seg1.ts`) resolves against it to
/// `http://HOST:PORT/https/cdn.example/v/seg1.ts`, which maps back to the origin's
/// `https://cdn.example/v/seg1.ts`: relative references stay inside the proxy.
///
/// A proxy that needs a token gets URLs with it as a path prefix,
/// `http://HOST:PORT/t/<token>/https/cdn.example/v/clip.mp4` (see `ProxyAccess`).
public struct ProxyURL: Hashable, Sendable {
    /// The proxy's host, as players reach it.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The proxy's token, when it needs one.
    public var token: String?

    /// A proxy URL scheme for a proxy at `host:port`, with `token` when it needs one.
    public init(host: String, port: Int, token: String? = nil) {
        self.host = host
        self.port = port
        self.token = token
    }

    /// The proxy at `authority`, a request's `Host` such as `192.168.1.20:8080` or `[::1]:8080`
    /// (port 80 when it has none); `nil` when it is not a host and port.
    public init?(authority: String, token: String? = nil) {
        guard let parsed = HostAndPort(Substring(authority)),
            parsed.host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:_".contains($0)) })
        else { return nil }
        self.init(host: String(parsed.host), port: parsed.port ?? 80, token: token)
    }

    /// The proxy's own root, such as `http://127.0.0.1:8080/` (its status page).
    public var root: URL {
        URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(token.map { "/t/\($0)" } ?? "")/")!
    }

    /// The proxy URL that plays `origin` through the cache, or `nil` when `origin` is not an
    /// `http` or `https` URL with a host (or carries user information, which is refused, or a
    /// host or port no server can have, such as a host with an encoded `/` or port 84430).
    public func url(for origin: URL) -> URL? {
        Self.path(for: origin).flatMap { URL(string: root.absoluteString + $0.dropFirst()) }
    }

    /// The path and query of the proxy URL for `origin`, such as `/https/cdn.example/clip.mp4`,
    /// without the proxy's address or token; `nil` as for ``url(for:)``.
    public static func path(for origin: URL) -> String? {
        guard let components = URLComponents(url: origin, resolvingAgainstBaseURL: true),
            (try? OriginURL.check(components, of: origin)) != nil,
            let scheme = components.scheme?.lowercased(), let name = components.host
        else { return nil }
        // A name travels as the URL spells it in ASCII (an international one in its `xn--`
        // form); an IPv6 literal's brackets are not allowed in a path and travel
        // percent-encoded. A host that needs percent-encoding (`%2F`, `%22`) has no proxy path:
        // no server can have it.
        let isIPv6 = name.contains(":")
        let spelling = isIPv6 ? name.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) : components.encodedHost ?? name
        guard isPlainAuthority(spelling) else { return nil }
        let originHost = isIPv6 ? "%5B\(spelling)%5D" : spelling
        var path = "/\(scheme)/\(originHost)"
        if let port = components.port { path += ":\(port)" }
        path += components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?\(query)" }
        return path
    }

    /// Whether `text` is a host and port that a URL reads back as itself: nothing a URL reads as
    /// a delimiter there (`/`, `?`, `#`, `@`), nothing it would percent-encode or IDNA-map. That
    /// is, only the characters RFC 3986 spells without percent-encoding in a host (unreserved
    /// and sub-delimiters), with `:` and an IPv6 literal's brackets.
    private static func isPlainAuthority(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-._~!$&'()*+,;=:[]".utf8.contains(byte)
            }
        }
    }

    /// The origin URL a proxy request path (with its query) stands for.
    ///
    /// - Parameter target: The request target, such as `/https/cdn.example/v/clip.mp4?t=1`. A
    ///   fragment (from a `#` on) is dropped: it never reaches a server (RFC 9110 §7.1).
    /// - Throws: ``ProxyURLError`` when the path does not name an http(s) origin.
    public static func origin(forTarget target: String) throws(ProxyURLError) -> URL {
        // Read byte by byte: the target is ASCII from here on, where a byte is a character but for
        // `\r\n`, which never joins a `/`, `?` or `#`: no `Character` walk on a new URL's first
        // request.
        let ascii = asASCII(target)
        let bytes = ascii.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[..<end].firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[..<(mark ?? end)]
        let query = mark.map { Substring(bytes[bytes.index(after: $0)..<end]) }
        // `/<scheme>/<authority><rest>`
        guard path.first == UInt8(ascii: "/"), let schemeEnd = path.dropFirst().firstIndex(of: UInt8(ascii: "/")) else {
            throw .notAProxyPath(target)
        }
        let spelledScheme = Substring(path[path.index(after: path.startIndex)..<schemeEnd])
        let scheme = spelledScheme.lowercased()
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(String(spelledScheme)) }
        let afterScheme = path[path.index(after: schemeEnd)...]
        let authorityEnd = afterScheme.firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.endIndex
        let encodedAuthority = Substring(afterScheme[..<authorityEnd])
        let rest = Substring(afterScheme[authorityEnd...])
        let decoded =
            encodedAuthority.utf8.contains(UInt8(ascii: "%")) ? encodedAuthority.removingPercentEncoding : String(encodedAuthority)
        guard let authority = decoded, !authority.isEmpty, isPlainAuthority(authority) else { throw .notAProxyPath(target) }
        let text = "\(scheme)://\(authority)\(rest.isEmpty ? "/" : rest)" + (query.map { "?\($0)" } ?? "")
        guard var components = URLComponents(string: text), let url = components.url,
            (try? OriginURL.check(components, of: url)) != nil
        else { throw .notAProxyPath(target) }
        // One spelling per port, so that one origin has one cache key: `:0090` is `:90`, and an
        // empty port is the scheme's default (RFC 3986 §6.2.3).
        guard hasOtherPortSpelling(authority) else { return url }
        components.port = components.port
        guard let canonical = components.url else { throw .notAProxyPath(target) }
        return canonical
    }

    /// Whether the port of `authority` (a plain host and port) is spelled other than as its
    /// number: empty, or with leading zeros.
    private static func hasOtherPortSpelling(_ authority: String) -> Bool {
        let bytes = authority.utf8
        let afterHost = bytes.lastIndex(of: UInt8(ascii: "]")).map { bytes[$0...] } ?? bytes[...]
        guard let colon = afterHost.lastIndex(of: UInt8(ascii: ":")) else { return false }
        let port = afterHost[afterHost.index(after: colon)...]
        return port.isEmpty || port.first == UInt8(ascii: "0")
    }

    /// Every scalar of ASCII, which a URL spells as itself.
    private static let asciiCharacters = CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(0x7F))

    /// `target` with anything beyond ASCII percent-encoded as UTF-8, as a URL spells it. Raw, a
    /// combining mark after a `#`, `?` or `/` would join it into one `Character` and hide it
    /// from the splitting below.
    private static func asASCII(_ target: String) -> String {
        guard !target.unicodeScalars.allSatisfy(\.isASCII) else { return target }
        return target.addingPercentEncoding(withAllowedCharacters: asciiCharacters) ?? target
    }
}

/// Why a request path does not name an origin.
///
/// ```swift
/// do {
///     let origin = try ProxyURL.origin(forTarget: "/ftp/cdn.example/a.mp4")
/// } catch {
///     print(error)   // only http and https origins are proxied, not ftp
/// }
/// ```
public struct ProxyURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<ProxyURLError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The request target, or the scheme it names.
    public let target: String

    private init(_ code: Code, _ message: String, target: String) {
        self.code = code
        self.message = message
        self.target = target
    }

    /// The path is not `/<scheme>/<authority>/...`.
    public static func notAProxyPath(_ target: String) -> Self {
        Self(.notAProxyPath, "\(target) is not a proxy path; use /<http|https>/<host>/<path>, see `mediacache url`", target: target)
    }

    /// The scheme is neither http nor https.
    public static func unsupportedScheme(_ scheme: String) -> Self {
        Self(.unsupportedScheme, "only http and https origins are proxied, not \(scheme)", target: scheme)
    }

    public var description: String { message }
}

extension ErrorCode where Owner == ProxyURLError {
    /// The path is not `/<scheme>/<authority>/...`.
    public static var notAProxyPath: Self { Self("notAProxyPath") }
    /// The scheme is neither http nor https.
    public static var unsupportedScheme: Self { Self("unsupportedScheme") }
}

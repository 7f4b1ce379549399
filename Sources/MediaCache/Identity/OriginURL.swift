import Foundation

/// The one check every way in applies to a URL before MediaCache fetches it: `http` or
/// `https`, with a host, a port a server can have (when it names one), and without a user name
/// or password (which would be stored in cache keys, listings and logs).
///
/// ```swift
/// let url = try OriginURL.check("https://cdn.example/clip.mp4")
/// try OriginURL.check("https://user:pw@cdn.example/clip.mp4")   // throws .credentials
/// ```
public enum OriginURL {
    /// `text` as a URL MediaCache fetches.
    ///
    /// - Throws: ``OriginURLError`` saying what is wrong with it.
    @discardableResult
    public static func check(_ text: String) throws(OriginURLError) -> URL {
        guard let url = URL(string: text), url.scheme != nil else { throw .notAURL(text) }
        return try check(url)
    }

    /// `url`, when MediaCache fetches such URLs.
    ///
    /// - Throws: ``OriginURLError`` saying what is wrong with it.
    @discardableResult
    public static func check(_ url: URL) throws(OriginURLError) -> URL {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { throw .notAURL(url.absoluteString) }
        try check(components, of: url)
        return url
    }

    /// Checks the parsed `components` of `url`, for a caller that needs them too.
    ///
    /// - Throws: ``OriginURLError`` saying what is wrong with `url`.
    public static func check(_ components: URLComponents, of url: URL) throws(OriginURLError) {
        guard let scheme = components.scheme?.lowercased() else { throw .notAURL(url.absoluteString) }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(url.absoluteString) }
        // The host is decoded (`host`, through ICU's IDNA) only when decoding can change or refuse
        // it: a percent-escape (`%5B%5D` is `[]`, no host) or a `--`, as in an `xn--` label, which
        // IDNA refuses when it is no valid Punycode. Decoding every host, and trimming it through
        // `NSString`, would cost every miss through the proxy.
        let spelled = components.encodedHost
        guard let host = spelled.map(Self.decodingMayChange) == true ? components.host : spelled,
            host.unicodeScalars.contains(where: { $0 != "[" && $0 != "]" })
        else {
            throw .noHost(url.absoluteString)
        }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
            throw .credentials(host: components.host ?? host)
        }
        // An empty port (`host:`) is the scheme's default; a spelled one must read as a port.
        // Foundation reads `:84430000000000000000` as no port at all, which would send the
        // request to another server than the URL names.
        if let spelled = components.rangeOfPort.flatMap({ range in components.string.map { $0[range] } }), !spelled.isEmpty {
            guard let port = components.port, ports.contains(port) else { throw .invalidPort(url.absoluteString) }
        }
    }

    /// Whether decoding the spelled `host` may change it or refuse it: it has a `%` or a `--`.
    private static func decodingMayChange(_ host: String) -> Bool {
        let (bytes, hyphen) = (host.utf8, UInt8(ascii: "-"))
        return bytes.contains(UInt8(ascii: "%")) || zip(bytes, bytes.dropFirst()).contains { $0 == hyphen && $1 == hyphen }
    }

    /// The ports a server can listen on.
    private static let ports = 1...65535
}

/// Why a URL is not fetched.
///
/// ```swift
/// do {
///     try OriginURL.check("https://user:pw@cdn.example.com/a.mp4")
/// } catch {
///     print(error)   // the URL for cdn.example.com carries a user name or password, …
/// }
/// ```
public struct OriginURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<OriginURLError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The URL as it was given; for `credentials`, only its host (the rest is a secret).
    public let text: String

    private init(_ code: Code, _ message: String, text: String) {
        self.code = code
        self.message = message
        self.text = text
    }

    /// The text is not an absolute URL.
    public static func notAURL(_ text: String) -> Self {
        Self(.notAURL, "\(text) is not an absolute URL; give an http or https URL", text: text)
    }

    /// The scheme is neither http nor https.
    public static func unsupportedScheme(_ text: String) -> Self {
        Self(.unsupportedScheme, "\(text) is not an http or https URL", text: text)
    }

    /// The URL names no host.
    public static func noHost(_ text: String) -> Self { Self(.noHost, "\(text) names no host", text: text) }

    /// The URL names a port no server can have, such as 0 or 84430.
    public static func invalidPort(_ text: String) -> Self {
        Self(.invalidPort, "\(text) names a port no server can have; a port is 1 to 65535", text: text)
    }

    /// The URL carries a user name or password (not repeated here: it is a secret).
    public static func credentials(host: String) -> Self {
        Self(
            .credentials,
            "the URL for \(host) carries a user name or password, which would be stored in cache keys and logs; "
                + "use a URL without credentials",
            text: host)
    }

    public var description: String { message }
}

extension ErrorCode where Owner == OriginURLError {
    /// The text is not an absolute URL.
    public static var notAURL: Self { Self("notAURL") }
    /// The scheme is neither http nor https.
    public static var unsupportedScheme: Self { Self("unsupportedScheme") }
    /// The URL names no host.
    public static var noHost: Self { Self("noHost") }
    /// The URL names a port no server can have.
    public static var invalidPort: Self { Self("invalidPort") }
    /// The URL carries a user name or password.
    public static var credentials: Self { Self("credentials") }
}

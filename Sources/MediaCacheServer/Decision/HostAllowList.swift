import Foundation
import MediaCache
import MediaCacheAPI

/// The origin hosts a proxy may fetch from: exact names or addresses, or `*.example.com` for
/// every subdomain of `example.com` (not `example.com` itself), each optionally with a port
/// (`127.0.0.1:8081`, `[::1]:8081`) that then must match too.
///
/// ```swift
/// let allowed = try HostAllowList(["cdn.example.com", "*.akamaized.net", "127.0.0.1:8081"])
/// allowed.allows(URL(string: "https://a.b.akamaized.net/v.mp4")!)   // true
/// allowed.allows(URL(string: "http://127.0.0.1:9000/v.mp4")!)        // false: another port
/// ```
public struct HostAllowList: Hashable, Sendable {
    struct Pattern: Hashable, Sendable {
        /// The lowercased name, or for a wildcard the suffix with its leading dot.
        var host: String
        var isWildcard: Bool
        var port: Int?
    }

    private let patterns: [Pattern]

    /// Creates a list from host patterns; case does not matter.
    ///
    /// - Throws: ``HostAllowListError`` for a pattern that is not a host, `*.`domain or either
    ///   with `:port` (a URL, a path, an empty text), and for an empty list, which would allow
    ///   nothing and is never taken to mean "all".
    public init(_ patterns: [String]) throws(HostAllowListError) {
        var parsed: [Pattern] = []
        for text in patterns {
            guard let pattern = Self.pattern(text) else { throw .invalidPattern(text) }
            parsed.append(pattern)
        }
        guard !parsed.isEmpty else { throw .empty }
        self.patterns = parsed
    }

    /// Whether `url`'s host (and port) may be fetched from.
    public func allows(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else { return false }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return patterns.contains { pattern in
            guard pattern.port.map({ $0 == port }) ?? true else { return false }
            return pattern.isWildcard ? host.hasSuffix(pattern.host) && host.count > pattern.host.count : host == pattern.host
        }
    }

    private static func pattern(_ text: String) -> Pattern? {
        guard let parsed = HostAndPort(Substring(text.trimmingCharacters(in: .whitespaces).lowercased())) else { return nil }
        var rest = parsed.host
        let port = parsed.port
        if parsed.isBracketed {
            guard rest.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            return Pattern(host: String(rest), isWildcard: false, port: port)
        }
        let isWildcard = rest.hasPrefix("*.")
        if isWildcard { rest = rest.dropFirst() }
        let labels = (isWildcard ? rest.dropFirst() : rest).split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty,
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            })
        else { return nil }
        return Pattern(host: String(rest), isWildcard: isWildcard, port: port)
    }
}

/// Why an allow-list cannot be built.
///
/// ```swift
/// do {
///     configuration.allowedHosts = try HostAllowList(["cdn.example.com", "*.example.net:8443"])
/// } catch {
///     print(error)   // '…' is not a host pattern; give a host name or address, …
/// }
/// ```
public struct HostAllowListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<HostAllowListError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The pattern that is not one, for the code `invalidPattern`.
    public let pattern: String?

    private init(_ code: Code, _ message: String, pattern: String? = nil) {
        self.code = code
        self.message = message
        self.pattern = pattern
    }

    /// A pattern is not a host, `*.`domain, or either with `:port`.
    public static func invalidPattern(_ text: String) -> Self {
        Self(
            .invalidPattern,
            "\(text.isEmpty ? "an empty host" : "'\(text)'") is not a host pattern; give a host name or address, "
                + "optionally with :port, such as cdn.example.com, *.example.com, 127.0.0.1:8081 or [::1]:8081",
            pattern: text)
    }

    /// No pattern was given.
    public static var empty: Self { Self(.empty, "the allow-list names no host; give at least one, or none at all to allow every host") }

    public var description: String { message }
}

extension ErrorCode where Owner == HostAllowListError {
    /// A pattern is not a host, `*.`domain, or either with `:port`.
    public static var invalidPattern: Self { Self("invalidPattern") }
    /// No pattern was given.
    public static var empty: Self { Self("empty") }
}

extension HostAllowList {
    /// The `403` for `origin` when its host is not on the list; `nil` when it may be fetched.
    func refusal(of origin: URL) -> ProxyRefusal? {
        allows(origin) ? nil : ProxyRefusal(.forbidden, "\(origin.host ?? "") is not among this proxy's allowed hosts")
    }
}

import Foundation

/// Who may use the proxy, and how large a request may be.
///
/// With a token set, every request carries it in one of three ways:
/// - `Authorization: Bearer <token>`,
/// - `X-MediaCache-Token: <token>`,
/// - or a path prefix, `http://HOST:PORT/t/<token>/https/cdn.example/clip.mp4`, for players
///   that cannot send headers; relative references in playlists keep the prefix.
public struct ProxyAccess: Sendable {
    /// Bounds on a request's head; a request beyond them is refused before any work.
    public struct Limits: Sendable {
        /// The longest request target (path and query). Default: 8 KiB; beyond it, 414.
        public var maxTargetLength = 8 << 10
        /// The longest single header field. Default: 16 KiB.
        public var maxHeaderFieldSize = 16 << 10
        /// The most header bytes in all. Default: 32 KiB; beyond it, 431.
        public var maxHeaderListSize = 32 << 10
        /// The most header fields. Default: 100.
        public var maxHeaderFieldCount = 100
        /// The largest request body (the API takes JSON). Default: 1 MiB; beyond it, 413.
        public var maxRequestBody = 1 << 20
        /// The most connections open at once. Default: 1,024; a connection beyond it is
        /// answered 503 and closed.
        public var maxConnections = 1024
        /// How long a connection may stay open with no request in progress. Default: 60 s.
        public var idleTimeout: Duration = .seconds(60)
        /// How long a client may take to send a whole request, from its first byte (a client
        /// trickling its head holds a connection no longer). Default: 10 s.
        public var requestTimeout: Duration = .seconds(10)
        /// How long response bytes may wait for a client that takes none of them before the
        /// connection is closed, as nginx's `send_timeout`: a paused player reconnects with a
        /// `Range` when it resumes. Default: 60 s.
        public var sendTimeout: Duration = .seconds(60)

        /// Creates the default limits.
        public init() {}
    }

    /// What to do with a request.
    enum Decision: Equatable {
        /// Serve it, at `target` (the request target without any token prefix).
        case allow(target: String)
        /// Refuse it.
        case reject(status: Int, message: String)
    }

    /// The secret requests must carry, or `nil` when none is needed.
    let token: String?
    let limits: Limits

    /// Decides on a request from its target and header fields.
    func decide(target: String, headers: [(name: String, value: String)]) -> Decision {
        guard target.utf8.count <= limits.maxTargetLength else {
            return .reject(status: 414, message: "the request target is longer than \(limits.maxTargetLength) bytes")
        }
        let headerBytes = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard headerBytes <= limits.maxHeaderListSize, headers.count <= limits.maxHeaderFieldCount,
            headers.allSatisfy({ $0.value.utf8.count <= limits.maxHeaderFieldSize })
        else {
            return .reject(status: 431, message: "the request's header fields are too large")
        }
        guard let token else {
            if target.hasPrefix("/t/") {
                return .reject(status: 404, message: "this proxy has no token: drop /t/<token>/ from the URL")
            }
            return .allow(target: target)
        }
        let prefix = "/t/\(token)"
        if let rest = target.dropPrefix(prefix), rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") {
            return .allow(target: rest.hasPrefix("/") ? rest : "/" + rest)
        }
        for (name, value) in headers {
            switch name.lowercased() {
            case "authorization" where Self.constantTimeEqual(value, "Bearer \(token)"),
                "x-mediacache-token" where Self.constantTimeEqual(value, token):
                return .allow(target: target)
            default:
                continue
            }
        }
        return .reject(status: 401, message: "this proxy needs its token: send `Authorization: Bearer <token>` or use /t/<token>/ URLs")
    }

    /// What a token must be, for messages.
    public static let tokenRule = "the token must be at least 8 characters of letters, digits and -._~"

    /// Whether `token` can be a proxy's token: at least 8 characters that travel unchanged in a
    /// URL path (letters, digits, `-._~`).
    public static func isValidToken(_ token: String) -> Bool {
        token.count >= 8
            && token.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._~".unicodeScalars.contains($0))
            }
    }

    /// Compares without an early exit, so response times do not reveal how much of a guess
    /// was right.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}

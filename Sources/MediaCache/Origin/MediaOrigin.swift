import Foundation

/// Where bytes come from: "fetch this range of this URL".
///
/// Two real implementations: `HTTPOrigin` in `MediaCacheHTTP` (SwiftNIO, for servers and the
/// proxy on Linux) and `URLSessionOrigin` in `MediaCacheURLSession` (an app's own `URLSession`,
/// the default on Apple platforms). `MediaCacheTesting` has a loopback test server to point
/// them at. Every byte any reader gets passes through one.
///
/// An origin of your own usually wraps one of them, for example to sign each request:
///
/// ```swift
/// struct SigningOrigin: MediaOrigin {
///     let base: HTTPOrigin
///     let signer: URLSigner
///
///     func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
///         var signed = request
///         signed.url = signer.sign(request.url)   // the cache key stays the unsigned URL
///         return try await base.fetch(signed)
///     }
/// }
/// ```
public protocol MediaOrigin: Sendable {
    /// Sends `request` and returns once the response head has arrived; the body streams
    /// from ``OriginResponse/body``. Cancelling the calling task stops the transfer.
    ///
    /// - Throws: ``OriginError``; an HTTP error status is ``OriginError/status(_:url:)``.
    func fetch(_ request: OriginRequest) async throws -> sending OriginResponse

    /// Where a fetch from `url` runs until its answer's head has been recorded: the executor of
    /// the thread that will read the answer, so that the request leaves and the head reaches
    /// the waiting readers with no hand-over between threads. The body is then taken on Swift's
    /// global executor. `nil`, the default, runs the whole fetch there.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
    func requestExecutor(for url: URL) -> (any TaskExecutor)?
}

/// One request to the origin.
public struct OriginRequest: Hashable, Sendable {
    /// GET transfers a body; HEAD only the head.
    public enum Method: String, Hashable, Sendable {
        case get = "GET"
        case head = "HEAD"
    }

    /// The resource.
    public var url: URL
    /// GET or HEAD.
    public var method: Method
    /// The bytes wanted, sent as `Range` (``ByteRequest/description``); `nil` asks for the
    /// whole body.
    public var bytes: ByteRequest?
    /// Sent as `If-Range` so that a changed resource answers `200` with the new content.
    public var ifRange: String?
    /// Sent as `If-None-Match` (an entity tag) and `If-Modified-Since` (a `Last-Modified`
    /// date): an unchanged resource answers ``OriginResponse/Kind/notModified``.
    public var ifNoneMatch: String?
    /// See ``ifNoneMatch``.
    public var ifModifiedSince: String?

    /// Creates a request.
    ///
    /// ```swift
    /// OriginRequest(url: url, bytes: ByteRequest(offset: 0, length: 2))   // Range: bytes=0-1
    /// ```
    public init(url: URL, method: Method = .get, bytes: ByteRequest? = nil, ifRange: String? = nil) {
        self.url = url
        self.method = method
        self.bytes = bytes
        self.ifRange = ifRange
    }

    /// A `GET` of the whole resource that the origin answers with
    /// ``OriginResponse/Kind/notModified`` while `stored`'s validators still match.
    public static func revalidation(of url: URL, stored: ContentInfo) -> OriginRequest {
        var request = OriginRequest(url: url)
        request.ifNoneMatch = stored.etag
        request.ifModifiedSince = stored.lastModified
        return request
    }

    /// The `Range` header value, if the request has one.
    public var rangeHeader: String? {
        bytes?.description
    }
}

extension MediaOrigin {
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
    public func requestExecutor(for url: URL) -> (any TaskExecutor)? {
        nil
    }
}

/// What the origin answered, already interpreted.
public struct OriginResponse {
    /// How the body relates to the request.
    public enum Kind: Hashable, Sendable {
        /// `206`: the body holds bytes starting at `offset`, `length` of them when known.
        case partial(offset: Int64, length: Int64?)
        /// `200`: the body is the whole resource from byte 0.
        case full
        /// `416`: nothing at the requested offset; the resource ends before it.
        case rangeNotSatisfiable
        /// `304`: the validators of a conditional request still match; there is no body.
        case notModified
    }

    /// How to read the body.
    public var kind: Kind
    /// Length, type, range support and validators from the head.
    public var info: ContentInfo
    /// The body, in chunks as they arrive.
    public var body: OriginBody

    /// Creates a response.
    public init(kind: Kind, info: ContentInfo, body: OriginBody) {
        self.kind = kind
        self.info = info
        self.body = body
    }
}

/// A response body: chunks of bytes as they arrive, consumed once by one task.
public struct OriginBody: AsyncSequence {
    public typealias Element = Data

    private let next: () async throws -> Data?

    /// A body whose chunks `next` returns, `nil` at the end.
    public init(next: @escaping () async throws -> Data?) {
        self.next = next
    }

    /// A body with no bytes.
    public static var empty: OriginBody { OriginBody { nil } }

    public func makeAsyncIterator() -> Iterator {
        Iterator(next: next)
    }

    /// Iterates the chunks.
    public struct Iterator: AsyncIteratorProtocol {
        let next: () async throws -> Data?

        public mutating func next() async throws -> Data? {
            try await next()
        }
    }
}

/// Why the origin did not deliver: an error status, a broken connection, or a response that
/// contradicts the request.
///
/// ```swift
/// do {
///     let response = try await origin.fetch(request)
/// } catch let error as OriginError where error.code == .status {
///     print("the origin answered \(error.status ?? 0) for \(error.url)")
/// }
/// ```
public struct OriginError: Error, Hashable, CustomStringConvertible {
    /// The kinds of origin failure.
    public typealias Code = ErrorCode<OriginError>

    /// What kind of failure it is.
    public let code: Code
    /// What happened, for a person to read.
    public let message: String
    /// The resource asked for.
    public let url: URL
    /// The HTTP status the origin answered with, for the code `status`.
    public let status: Int?
    /// The error the transport reported, for the code `transport`, when there was one.
    public let underlying: (any Error)?

    private init(_ code: Code, _ message: String, url: URL, status: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.status = status
        self.underlying = underlying
    }

    /// The origin answered with an error status (4xx, 5xx).
    public static func status(_ status: Int, url: URL) -> OriginError {
        OriginError(.status, "origin answered \(status) for \(url)", url: url, status: status)
    }

    /// The connection failed or dropped; `reason` says how.
    public static func transport(_ reason: String, url: URL, underlying: (any Error)? = nil) -> OriginError {
        OriginError(.transport, "transfer from \(url) failed: \(reason)", url: url, underlying: underlying)
    }

    /// The response contradicts the request or itself, for example a `Content-Range` that
    /// does not start where asked.
    public static func invalidResponse(_ reason: String, url: URL) -> OriginError {
        OriginError(.invalidResponse, "invalid response from \(url): \(reason)", url: url)
    }

    /// `error` as an origin failure: itself when it is one, else a transport failure that names
    /// it, so that whatever a fetch threw reaches the reader with the URL.
    package static func failure(_ error: any Error, url: URL) -> OriginError {
        error as? OriginError ?? .transport("\(error)", url: url, underlying: error)
    }

    /// Whether trying again may succeed: transport failures and 408, 429, 500, 502, 503, 504.
    public var isTransient: Bool {
        if code == .transport { return true }
        return status.map { [408, 429, 500, 502, 503, 504].contains($0) } ?? false
    }

    public var description: String { message }

    /// Errors are equal when their code, message, URL and status are; the underlying error is
    /// not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.code, lhs.message, lhs.url, lhs.status) == (rhs.code, rhs.message, rhs.url, rhs.status)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension ErrorCode where Owner == OriginError {
    /// The origin answered with an error status (4xx, 5xx); ``OriginError/status`` has it.
    public static var status: Self { Self("status") }
    /// The connection failed or dropped.
    public static var transport: Self { Self("transport") }
    /// The response contradicts the request or itself.
    public static var invalidResponse: Self { Self("invalidResponse") }
}

import Foundation
import MediaCache
import MediaCacheEventLoops
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import Tracing

/// The real origin: HTTP/1.1 and HTTPS through `OriginClient`, redirects followed.
///
/// An app that bootstraps a tracer (swift-distributed-tracing's `InstrumentationSystem`) before
/// creating the origin gets a span for each origin request; without one, no request builds a
/// span.
///
/// ```swift
/// let origin = HTTPOrigin()
/// let loader = MediaLoader(store: store, origin: origin)
/// // ...
/// try await origin.shutdown()
/// ```
public final class HTTPOrigin: MediaOrigin {
    /// Timeouts, redirects and extra headers.
    public struct Configuration: Sendable {
        /// The longest wait for a connection. Default: 10 s.
        public var connectTimeout: Duration = .seconds(10)
        /// The longest wait for the next bytes of a head or body. Default: 30 s.
        public var readTimeout: Duration = .seconds(30)
        /// Redirects followed before giving up. Default: 10.
        public var maximumRedirects = 10
        /// Headers sent with every request, for example `User-Agent` or an authorization.
        public var headers: [(String, String)] = [("User-Agent", "MediaCache")]
        /// Headers added per server, over ``headers``: an asset's cookies, user agent or
        /// authorization. Default: none.
        public var serverHeaders = OriginHeaders()
        /// PEM files of certificate authorities to trust besides the system's, for an origin
        /// whose certificate a private authority signed. Certificates are always verified;
        /// there is no setting that turns verification off. Default: none.
        public var trustedCertificateFiles: [String] = []

        /// Creates the default configuration.
        public init() {}
    }

    private let client: OriginClient
    private let headers: HTTPHeaders
    private let serverHeaders: OriginHeaders
    private let maximumRedirects: Int
    /// The tracer the app bootstrapped, if any.
    private let tracer: (any Tracer)?

    /// The most bytes of a body read ahead of the fetch that writes them (see ``OriginTransfer``).
    static let readAheadLimit = 512 << 10

    /// Creates an origin with its own connections; call ``shutdown()`` when done.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    /// Creates an origin whose connections run on `eventLoopGroup`. A request asked from one of
    /// its loops is made there (`OriginClient.loop(for:)`): `mediacache serve` passes the
    /// loops of its client connections, so that a miss's request leaves from, and its answer is
    /// read on, the thread of the connection that asked.
    package convenience init(configuration: Configuration = Configuration(), eventLoopGroup: any EventLoopGroup) {
        let tracer = InstrumentationSystem.tracer
        self.init(configuration: configuration, tracer: tracer is NoOpTracer ? nil : tracer, eventLoopGroup: eventLoopGroup)
    }

    /// Creates an origin whose requests are spans of `tracer`, none when it is `nil`.
    init(
        configuration: Configuration, tracer: (any Tracer)?,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        client = OriginClient(
            configuration: .init(
                connectTimeout: .init(configuration.connectTimeout),
                readTimeout: .init(configuration.readTimeout),
                trustedCertificateFiles: configuration.trustedCertificateFiles),
            group: eventLoopGroup)
        headers = HTTPHeaders(configuration.headers)
        serverHeaders = configuration.serverHeaders
        maximumRedirects = configuration.maximumRedirects
        self.tracer = tracer
    }

    /// Whether each request is traced: only under a tracer the app bootstrapped.
    var tracesRequests: Bool { tracer != nil }

    /// Closes the origin's connections.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw OriginError.invalidResponse("only http and https URLs can be fetched", url: request.url)
        }
        var headers = self.headers
        for (name, value) in serverHeaders.headers(for: request.url) { headers.replaceOrAdd(name: name, value: value) }
        if let range = request.rangeHeader { headers.replaceOrAdd(name: "Range", value: range) }
        if let ifRange = request.ifRange, request.rangeHeader != nil {
            headers.replaceOrAdd(name: "If-Range", value: ifRange)
        }
        if let etag = request.ifNoneMatch { headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let date = request.ifModifiedSince { headers.replaceOrAdd(name: "If-Modified-Since", value: date) }
        let method: HTTPMethod = request.method == .head ? .HEAD : .GET
        let span = tracer.map { OriginSpan(tracer: $0, method: method, url: request.url, headers: &headers) }
        var ended: (@Sendable (OriginTransfer.Head?, (any Error)?) -> Void)?
        if let span { ended = { span.end(head: $0, failure: $1) } }
        let transfer = OriginTransfer(
            OriginClient.Request(url: request.url, method: method, headers: headers), on: client,
            maximumRedirects: maximumRedirects, limit: Self.readAheadLimit, ended: ended)
        let head: OriginTransfer.Head
        do {
            head = try await transfer.head()
        } catch {
            throw OriginError.transport(TransportFailure.reason(error, url: request.url), url: request.url, underlying: error)
        }
        var (kind, info) = try ResponseInterpreter(request: request)
            .interpret(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) })
        if head.url.absoluteString != request.url.absoluteString { info.finalURL = head.url }
        guard request.method == .get, kind != .notModified else { return OriginResponse(kind: kind, info: info, body: .empty) }
        let url = request.url
        return OriginResponse(
            kind: kind, info: info,
            body: OriginBody {
                do {
                    return try await transfer.next()
                } catch {
                    throw OriginError.transport(TransportFailure.reason(error, url: url), url: url, underlying: error)
                }
            })
    }
}

extension HTTPOrigin {
    /// The event loop `url`'s transfers run on when asked from here (`OriginClient.loop(for:)`):
    /// a fetch's request is made there and its head read and recorded there, without a
    /// hand-over between threads.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
    public func requestExecutor(for url: URL) -> (any TaskExecutor)? {
        EventLoopTaskExecutor(client.loop(for: url))
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

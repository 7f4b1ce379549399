import AsyncHTTPClient
import Foundation
import MediaCache
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import Tracing

/// The real origin: HTTP and HTTPS over AsyncHTTPClient, redirects followed.
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
        /// PEM files of certificate authorities to trust besides the system's, for an origin
        /// whose certificate a private authority signed. Certificates are always verified;
        /// there is no setting that turns verification off. Default: none.
        public var trustedCertificateFiles: [String] = []

        /// Creates the default configuration.
        public init() {}
    }

    private let client: HTTPClient
    private let headers: [(String, String)]
    /// The client's event loops; each host's transfers run on one of them.
    private let loops: [any EventLoop]

    /// The most bytes of a body read ahead of the fetch that writes them (see ``OriginTransfer``).
    static let readAheadLimit = 512 << 10

    /// Creates an origin with its own HTTP client; call ``shutdown()`` when done.
    public init(configuration: Configuration = Configuration()) {
        var settings = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: configuration.maximumRedirects, allowCycles: false),
            timeout: .init(connect: .init(configuration.connectTimeout), read: .init(configuration.readTimeout)))
        settings.decompression = .disabled
        // With no tracer bootstrapped, AsyncHTTPClient still builds a span and its attributes for
        // each request, before writing it: 50 µs of a miss's CPU (BENCHMARKS.md, "Foundation off
        // a miss's path"). An app that bootstraps a tracer gets its spans.
        if settings.tracing.tracer is NoOpTracer { settings.tracing.tracer = nil }
        // The loader retries transport failures under its RetryPolicy; a second layer of
        // connection retries here would only make a dead origin slow to report.
        settings.connectionPool.retryConnectionEstablishment = false
        if !configuration.trustedCertificateFiles.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = configuration.trustedCertificateFiles.map { .file($0) }
            settings.tlsConfiguration = tls
        }
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
        headers = configuration.headers
        loops = Array(client.eventLoopGroup.makeIterator())
    }

    /// Whether each request is traced: only under a tracer the app bootstrapped.
    var tracesRequests: Bool { client.tracer != nil }

    /// Closes the client's connections.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw OriginError.invalidResponse("only http and https URLs can be fetched", url: request.url)
        }
        var headers = HTTPHeaders(self.headers)
        if let range = request.rangeHeader { headers.replaceOrAdd(name: "Range", value: range) }
        if let ifRange = request.ifRange, request.rangeHeader != nil {
            headers.replaceOrAdd(name: "If-Range", value: ifRange)
        }
        if let etag = request.ifNoneMatch { headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let date = request.ifModifiedSince { headers.replaceOrAdd(name: "If-Modified-Since", value: date) }
        let transfer: OriginTransfer
        let head: OriginTransfer.Head
        do {
            // The URL itself: from its string, AsyncHTTPClient would parse it once more.
            let outgoing = try HTTPClient.Request(url: request.url.absoluteURL, method: request.method == .head ? .HEAD : .GET,
                                                  headers: headers)
            transfer = OriginTransfer(outgoing, on: client, eventLoop: loop(for: request.url), limit: Self.readAheadLimit)
            head = try await transfer.head()
        } catch {
            throw OriginError.transport(TransportFailure.reason(error, url: request.url), url: request.url)
        }
        var (kind, info) = try ResponseInterpreter(request: request)
            .interpret(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) })
        if head.url.absoluteString != request.url.absoluteString { info.finalURL = head.url }
        guard request.method == .get, kind != .notModified else { return OriginResponse(kind: kind, info: info, body: .empty) }
        let url = request.url
        return OriginResponse(kind: kind, info: info, body: OriginBody {
            do {
                return try await transfer.next()
            } catch {
                throw OriginError.transport(TransportFailure.reason(error, url: url), url: url)
            }
        })
    }
}

extension HTTPOrigin {
    /// The event loop of `url`'s host, where its transfers run: a fetch's request is made
    /// there and its head read and recorded there, without a hand-over between threads
    /// (BENCHMARKS.md, "A miss's request made where its answer is read").
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
    public func requestExecutor(for url: URL) -> (any TaskExecutor)? {
        EventLoopTaskExecutor(loop(for: url))
    }

    /// The event loop of `url`'s host. AsyncHTTPClient makes a host's connections on the loop
    /// its requests prefer, and then reads each response where its delegate runs, with no
    /// hand-over between the two. The host is taken as spelled and hashed byte by byte (FNV-1a):
    /// decoding it and hashing it as a `String` took a miss about 6 µs.
    private func loop(for url: URL) -> any EventLoop {
        let host = url.host(percentEncoded: true) ?? ""
        let hash = host.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return loops[Int(hash % UInt64(loops.count))]
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

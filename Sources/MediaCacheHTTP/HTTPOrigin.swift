import AsyncHTTPClient
import Foundation
import MediaCache
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

/// The real origin: HTTP and HTTPS over AsyncHTTPClient, redirects followed.
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

    /// The most bytes of a body read ahead of the fetch that writes them (see ``BodyReadAhead``).
    static let readAheadLimit = 512 << 10

    /// Creates an origin with its own HTTP client; call ``shutdown()`` when done.
    public init(configuration: Configuration = Configuration()) {
        var settings = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: configuration.maximumRedirects, allowCycles: false),
            timeout: .init(connect: .init(configuration.connectTimeout), read: .init(configuration.readTimeout)))
        settings.decompression = .disabled
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
    }

    /// Closes the client's connections.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw OriginError.invalidResponse("only http and https URLs can be fetched", url: request.url)
        }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == .head ? .HEAD : .GET
        for (name, value) in headers { outgoing.headers.add(name: name, value: value) }
        if let range = request.rangeHeader { outgoing.headers.replaceOrAdd(name: "Range", value: range) }
        if let ifRange = request.ifRange, request.rangeHeader != nil {
            outgoing.headers.replaceOrAdd(name: "If-Range", value: ifRange)
        }
        if let etag = request.ifNoneMatch { outgoing.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let date = request.ifModifiedSince { outgoing.headers.replaceOrAdd(name: "If-Modified-Since", value: date) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: .distantFuture)
        } catch {
            throw OriginError.transport(TransportFailure.reason(error, url: request.url), url: request.url)
        }
        var (kind, info) = try ResponseInterpreter(request: request)
            .interpret(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) })
        if let final = response.url, final.absoluteString != request.url.absoluteString { info.finalURL = final }
        guard request.method == .get, kind != .notModified else { return OriginResponse(kind: kind, info: info, body: .empty) }
        let url = request.url
        let body = BodyReadAhead(response.body, limit: Self.readAheadLimit)
        return OriginResponse(kind: kind, info: info, body: OriginBody {
            do {
                return try await body.next()
            } catch {
                throw OriginError.transport(TransportFailure.reason(error, url: url), url: url)
            }
        })
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

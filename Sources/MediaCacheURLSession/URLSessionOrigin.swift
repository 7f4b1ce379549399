import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache

/// An origin that fetches through a `URLSession`: the app's own, with its configuration and
/// delegate, so that media requests carry what its other requests carry (headers, cookies, a
/// user agent, certificate pinning, cellular and Low Data Mode policy, system proxies and VPN),
/// and an app links no TLS stack of its own to play its videos. The adapter's default on Apple
/// platforms.
///
/// ```swift
/// let session = URLSession(configuration: appConfiguration, delegate: pinningDelegate, delegateQueue: nil)
/// let origin = URLSessionOrigin(session: session)
/// let loader = MediaLoader(store: store, origin: origin)
/// ```
///
/// It fetches through a session of its own made from the one given: the same configuration,
/// and a delegate (`SessionRouter`) that streams each body and passes authentication
/// challenges and redirects to the given session's delegate, which sees that session in its
/// calls. Each request bypasses the session's URL cache (MediaCache is the cache) and asks for the
/// bytes as they are (`Accept-Encoding: identity`), so that ranges and lengths mean bytes of
/// the file. Redirects are followed by the session (its delegate may refuse them); the final
/// URL is recorded. Headers given per server (`OriginHeaders`) are added to each request.
public final class URLSessionOrigin: MediaOrigin {
    /// The configuration requests go out with: the given session's.
    public var configuration: URLSessionConfiguration { session.configuration }
    /// Headers added per server, such as an asset's cookies and authorization.
    public let headers: OriginHeaders
    private let session: URLSession
    private let router: SessionRouter
    private let readAheadLimit: Int

    /// An origin fetching as `session` does (by default `URLSession.shared`), adding `headers`
    /// per server, and holding at most `readAheadLimit` bytes of a body that its reader has not
    /// taken yet. Call ``invalidate()`` when done.
    public init(session: URLSession = .shared, headers: OriginHeaders = OriginHeaders(), readAheadLimit: Int = 512 << 10) {
        router = SessionRouter(forwardingTo: session.delegate)
        self.session = URLSession(configuration: session.configuration, delegate: router, delegateQueue: nil)
        self.headers = headers
        self.readAheadLimit = readAheadLimit
    }

    /// Cancels every transfer and releases the session; the origin fetches nothing after.
    public func invalidate() {
        session.invalidateAndCancel()
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw OriginError.invalidResponse("only http and https URLs can be fetched", url: request.url)
        }
        let task = session.dataTask(with: urlRequest(for: request))
        let stream = DataTaskStream(task, limit: readAheadLimit)
        router.route(task, to: stream)
        task.resume()
        let head: HTTPURLResponse
        do {
            head = try await stream.head()
        } catch {
            throw Self.failure(error, url: request.url)
        }
        let fields = head.allHeaderFields.compactMap { name, value in (name as? String).map { ($0, "\(value)") } }
        var (kind, info): (OriginResponse.Kind, ContentInfo)
        do {
            (kind, info) = try ResponseInterpreter(request: request).interpret(status: head.statusCode, headers: fields)
        } catch {
            stream.cancel()
            throw error
        }
        if let final = head.url, final.absoluteString != request.url.absoluteString { info.finalURL = final }
        guard request.method == .get, kind != .notModified else {
            stream.cancel()
            return OriginResponse(kind: kind, info: info, body: .empty)
        }
        let url = request.url
        let transfer = Transfer(stream)
        return OriginResponse(
            kind: kind, info: info,
            body: OriginBody {
                do {
                    return try await transfer.stream.next()
                } catch {
                    throw Self.failure(error, url: url)
                }
            })
    }

    /// A body's transfer, cancelled when the body is dropped before its end (a reader that
    /// stopped): the session holds the task and its delegate, which would otherwise wait,
    /// suspended, for a reader that never comes.
    private final class Transfer: Sendable {
        let stream: DataTaskStream

        init(_ stream: DataTaskStream) {
            self.stream = stream
        }

        deinit {
            stream.cancel()
        }
    }

    /// The `URLRequest` for `request`, with the per-server headers.
    func urlRequest(for request: OriginRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in headers.headers(for: request.url) { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let range = request.rangeHeader {
            urlRequest.setValue(range, forHTTPHeaderField: "Range")
            if let ifRange = request.ifRange { urlRequest.setValue(ifRange, forHTTPHeaderField: "If-Range") }
        }
        if let etag = request.ifNoneMatch { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = request.ifModifiedSince { urlRequest.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        return urlRequest
    }

    /// `error` as the loader reads it: a cancelled transfer as cancellation, any other failure
    /// of the session as a transport failure that names the URL.
    private static func failure(_ error: any Error, url: URL) -> any Error {
        if let error = error as? URLError, error.code == .cancelled { return CancellationError() }
        if error is CancellationError { return error }
        let reason = (error as? URLError).map { "\($0.localizedDescription) (URLError \($0.code.rawValue))" } ?? "\(error)"
        return OriginError.transport(reason, url: url, underlying: error)
    }
}

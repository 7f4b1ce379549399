import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks the embedded proxy over loopback, through a `URLSession` of its own: no cookies, no
/// cache, no system proxy, a short deadline.
enum LoopbackClient {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration)
    }()

    /// The status and body of `url`'s answer, of at most `limit` bytes.
    ///
    /// - Throws: `URLError` when the proxy does not answer within `timeout` seconds, and
    ///   `URLError(.dataLengthExceedsMaximum)` for a longer body.
    static func get(_ url: URL, timeout: TimeInterval, limit: Int) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        let (body, response) = try await session.data(for: request)
        guard body.count <= limit else { throw URLError(.dataLengthExceedsMaximum) }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCacheAPI

/// Asks the embedded proxy over loopback, through the loopback session (no cookies, no cache,
/// no system proxy), with a short deadline.
enum LoopbackClient {
    /// The status and body of `url`'s answer, of at most `limit` bytes.
    ///
    /// - Throws: `URLError` when the proxy does not answer within `timeout` seconds, and
    ///   `URLError(.dataLengthExceedsMaximum)` for a longer body.
    static func get(_ url: URL, timeout: TimeInterval, limit: Int) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        let (body, response) = try await LoopbackSession.shared.data(for: request)
        guard body.count <= limit else { throw URLError(.dataLengthExceedsMaximum) }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
#if os(Linux)
import MediaCacheHTTP
#endif
import MediaCacheURLSession

/// The origin a ``PlaybackCache`` that opens its own store fetches with, and how it is closed.
///
/// On Apple platforms: a ``URLSessionOrigin`` over ``PlaybackCache/Configuration/session`` (by
/// default `URLSession.shared`), so that media requests go as the app's own do. On Linux the
/// same when a session is given; without one, SwiftNIO's `HTTPOrigin`.
struct AppOrigin: Sendable {
    let origin: any MediaOrigin
    private let closing: @Sendable () async throws -> Void

    init(session: URLSession?, headers: OriginHeaders) {
        #if os(Linux)
        if session == nil {
            var configuration = HTTPOrigin.Configuration()
            configuration.serverHeaders = headers
            let http = HTTPOrigin(configuration: configuration)
            (origin, closing) = (http, { try await http.shutdown() })
            return
        }
        #endif
        let fetching = URLSessionOrigin(session: session ?? .shared, headers: headers)
        (origin, closing) = (fetching, { fetching.invalidate() })
    }

    /// Ends the origin's transfers and releases its connections.
    func close() async throws {
        try await closing()
    }
}

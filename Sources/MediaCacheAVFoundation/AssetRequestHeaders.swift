#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The headers an asset's origin requests carry: what its options ask of AVFoundation's own
/// requests (`AVURLAssetHTTPCookiesKey`, `AVURLAssetHTTPUserAgentKey`, and the widely used
/// `AVURLAssetHTTPHeaderFieldsKey`), then the headers given with it, which win.
enum AssetRequestHeaders {
    /// The option key AVFoundation reads extra header fields from; not in Apple's headers.
    static let headerFieldsKey = "AVURLAssetHTTPHeaderFieldsKey"

    static func headers(options: [String: Any]?, given: [String: String]) -> [String: String] {
        var headers = options?[headerFieldsKey] as? [String: String] ?? [:]
        if let cookies = options?[AVURLAssetHTTPCookiesKey] as? [HTTPCookie], !cookies.isEmpty {
            headers.merge(HTTPCookie.requestHeaderFields(with: cookies)) { _, cookie in cookie }
        }
        if let agent = options?[AVURLAssetHTTPUserAgentKey] as? String { headers["User-Agent"] = agent }
        headers.merge(given) { _, given in given }
        return headers
    }
}

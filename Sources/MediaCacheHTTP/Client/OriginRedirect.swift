import Foundation
import NIOHTTP1

/// Where a response sends its request on, if anywhere (RFC 9110 §15.4), and which of the
/// request's headers go with it.
enum OriginRedirect {
    /// The statuses that redirect, when they carry a `Location`.
    static let statuses: Set<UInt> = [301, 302, 303, 307, 308]
    /// Headers that stay with the origin they were meant for: a redirect to another scheme,
    /// host or port goes without them.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The URL `head`, answering a request for `url`, redirects to; `nil` when the response is
    /// the answer: not a redirect, no usable `Location`, or one to a scheme other than `http`
    /// and `https` (answered as it is, so that the caller sees the status).
    static func target(of head: HTTPResponseHead, from url: URL) -> URL? {
        guard statuses.contains(head.status.code), let location = head.headers.first(name: "Location"),
            let target = URL(string: location, relativeTo: url)?.absoluteURL, OriginEndpoint(target) != nil
        else { return nil }
        return target
    }

    /// `headers` as they go to `target` after a request for `url`.
    static func headers(_ headers: HTTPHeaders, from url: URL, to target: URL) -> HTTPHeaders {
        guard OriginEndpoint(target) != OriginEndpoint(url) else { return headers }
        var kept = headers
        for name in credentialHeaders { kept.remove(name: name) }
        return kept
    }
}

import Foundation

/// How a request of ``OriginClient`` failed, beside the socket's, TLS's and the HTTP parser's
/// own errors. ``TransportFailure`` says each in words.
enum OriginClientError: Error, Equatable {
    /// The connection closed before the response's head; `reused` when it had carried an
    /// earlier request, as a connection the origin closed while it was idle does.
    case closedBeforeAnswer(reused: Bool)
    /// The connection closed after the head, before the body's end.
    case closedMidResponse
    /// The origin sent nothing for the read timeout while the client waited for it.
    case readTimeout
    /// The redirects went on past the limit.
    case tooManyRedirects(Int)
    /// A redirect led back to a URL already asked.
    case redirectCycle(URL)
    /// The URL has no host, or a scheme other than `http` and `https`.
    case unsupportedURL(URL)
    /// The client was shut down.
    case shutDown
}

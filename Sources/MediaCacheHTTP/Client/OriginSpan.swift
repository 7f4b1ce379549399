import Foundation
import NIOHTTP1
import Tracing

/// The span of one origin request, from its start to its transfer's end, under a tracer the
/// app bootstrapped. The span's context goes to the origin in the request's headers.
struct OriginSpan: Sendable {
    private let span: any Span

    /// Starts the span of a `method` request for `url` and adds its context to `headers`.
    init(tracer: any Tracer, method: HTTPMethod, url: URL, headers: inout HTTPHeaders) {
        span = tracer.startSpan(method.rawValue, context: .current ?? .topLevel, ofKind: .client)
        span.attributes["http.request.method"] = method.rawValue
        span.attributes["url.scheme"] = url.scheme
        span.attributes["server.address"] = url.host(percentEncoded: true)
        span.attributes["server.port"] = url.port
        span.attributes["url.path"] = url.path(percentEncoded: true)
        tracer.inject(span.context, into: &headers, using: HeadersInjector())
    }

    /// Ends the span with the final response's status, if its head came, and the transfer's
    /// failure, if it failed (a response dropped before its end was cancelled).
    func end(head: OriginTransfer.Head?, failure: (any Error)?) {
        if let head {
            span.attributes["http.response.status_code"] = Int(head.status.code)
            if head.status.code >= 400 { span.setStatus(SpanStatus(code: .error)) }
        }
        if let failure {
            span.recordError(failure)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    private struct HeadersInjector: Injector {
        func inject(_ value: String, forKey name: String, into headers: inout HTTPHeaders) {
            headers.add(name: name, value: value)
        }
    }
}

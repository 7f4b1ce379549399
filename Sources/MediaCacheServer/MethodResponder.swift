import HTTPTypes
import Hummingbird

/// Answers `405 Method Not Allowed` with an `Allow` header for a method that a path does not
/// take, before the router would answer 404; other requests pass to `inner`.
struct MethodResponder<Inner: HTTPResponder>: HTTPResponder {
    let hasMetrics: Bool
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        let allowed = PathRoute(path: request.uri.path, hasMetrics: hasMetrics).methods
        guard let allowed, !allowed.contains(request.method) else {
            return try await inner.respond(to: request, context: context)
        }
        var response = ProxyResponder.text(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowed.map(\.rawValue).joined(separator: " or "))\n")
        response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }
}

import HTTPTypes
import Hummingbird

/// Answers `405 Method Not Allowed` with an `Allow` header for a method that a path does not
/// take, before the router would answer 404; other requests pass to `inner`.
struct MethodResponder<Inner: HTTPResponder>: HTTPResponder {
    let hasMetrics: Bool
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        let allowed = Self.methods(for: request.uri.path, hasMetrics: hasMetrics)
        guard let allowed, !allowed.contains(request.method) else {
            return try await inner.respond(to: request, context: context)
        }
        var response = ProxyResponder.text(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowed.map(\.rawValue).joined(separator: " or "))\n")
        response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }

    /// The methods the server answers at `path`, or `nil` for a path it does not know (the
    /// router's 404 then).
    static func methods(for path: String, hasMetrics: Bool) -> [HTTPRequest.Method]? {
        switch path {
        case "/", "/api/url", "/api/stats": return [.get]
        case "/metrics" where hasMetrics: return [.get]
        case "/api/entries": return [.get, .delete]
        case "/api/preload": return [.get, .post, .delete]
        case _ where path.hasPrefix("/api/entries/"): return path.hasSuffix("/pin") ? [.put, .delete] : [.delete]
        case _ where path == "/api" || path.hasPrefix("/api/"): return nil
        default: return [.get, .head]
        }
    }
}

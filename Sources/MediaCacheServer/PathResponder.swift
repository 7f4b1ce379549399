import HTTPTypes
import Hummingbird

/// Sends each request where its path goes (``PathRoute``), deciding it once:
/// - a method the path does not take gets `405 Method Not Allowed` with an `Allow` header,
///   before the router would answer 404;
/// - a proxy path's `GET` or `HEAD` goes straight to ``ProxyResponder``: walking the router's
///   trie cost a miss on a new connection about 30 µs of CPU before its origin request
///   (BENCHMARKS.md, "Foundation off a miss's path");
/// - anything else goes to the router, whose catch-all routes answer proxy paths the same way.
struct PathResponder<Routes: HTTPResponder>: HTTPResponder where Routes.Context == ProxyRequestContext {
    let proxy: ProxyResponder
    let hasMetrics: Bool
    let routes: Routes

    func respond(to request: Request, context: ProxyRequestContext) async throws -> Response {
        let route = PathRoute(path: request.uri.path, hasMetrics: hasMetrics)
        guard let allowed = route.methods, !allowed.contains(request.method) else {
            if route == .proxy { return await proxy.respond(to: request, context: context) }
            return try await routes.respond(to: request, context: context)
        }
        var response = ProxyResponder.text(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowed.map(\.rawValue).joined(separator: " or "))\n")
        response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }
}

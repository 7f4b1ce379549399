import Hummingbird

/// Sends a `GET` or `HEAD` of a proxy path (``PathRoute/proxy``) straight to ``ProxyResponder``,
/// and every other request to the router, whose catch-all routes answer proxy paths the same
/// way. Walking the router's trie cost a miss on a new connection about 30 µs of CPU before its
/// origin request (BENCHMARKS.md, "Foundation off a miss's path").
struct ProxyRouteResponder<Routes: HTTPResponder>: HTTPResponder where Routes.Context == ProxyRequestContext {
    let proxy: ProxyResponder
    let hasMetrics: Bool
    let routes: Routes

    func respond(to request: Request, context: ProxyRequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head,
              PathRoute(path: request.uri.path, hasMetrics: hasMetrics) == .proxy else {
            return try await routes.respond(to: request, context: context)
        }
        return await proxy.respond(to: request, context: context)
    }
}

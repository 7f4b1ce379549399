import Hummingbird

/// Executes each request's ``ProxyDecision``, which the connection made from its head: a
/// refusal is the answer; an endpoint goes to the router, at its target without any token
/// prefix; a resource goes to ``ProxyResponder``.
struct DecisionResponder<Routes: HTTPResponder>: HTTPResponder where Routes.Context == ProxyRequestContext {
    let proxy: ProxyResponder
    let routes: Routes

    func respond(to request: Request, context: ProxyRequestContext) async throws -> Response {
        switch context.decision {
        case .reject(let refusal):
            return refusal.response
        case .preflight:
            return Response(status: .noContent, headers: CORSAllowList.preflightFields)
        case .endpoint(let target) where target == request.head.path:
            return try await routes.respond(to: request, context: context)
        case .endpoint(let target):
            var head = request.head
            head.path = target
            return try await routes.respond(to: Request(head: head, body: request.body), context: context)
        case .resource(let origin, let answer):
            return try await proxy.respond(to: request, origin: origin, answer: answer, context: context)
        }
    }
}

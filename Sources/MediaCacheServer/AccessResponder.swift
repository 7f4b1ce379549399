import HTTPTypes
import Hummingbird

/// Applies ``ProxyAccess`` before the router sees a request, removing a `/t/<token>` prefix
/// so that routes match the same paths with and without it.
struct AccessResponder<Inner: HTTPResponder>: HTTPResponder {
    let access: ProxyAccess
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        let target = request.head.path ?? "/"
        let fields = request.headers.map { (name: $0.name.rawName, value: $0.value) }
        switch access.decide(target: target, headers: fields) {
        case .reject(let status, let message):
            return ProxyResponder.text(HTTPResponse.Status(code: status), message + "\n")
        case .allow(let allowed) where allowed == target:
            return try await inner.respond(to: request, context: context)
        case .allow(let allowed):
            var head = request.head
            head.path = allowed
            return try await inner.respond(to: Request(head: head, body: request.body), context: context)
        }
    }
}

import HTTPTypes
import Hummingbird
import MediaCache

/// Turns a store failure inside an API route into an answer that names it: 507 for a full
/// disk, 503 once the store is closed (the server is stopping), 500 otherwise.
struct StoreErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as MediaStoreError {
            let status: HTTPResponse.Status =
                switch error.code {
                case .diskFull: HTTPResponse.Status(code: 507)
                case .closed: .serviceUnavailable
                default: .internalServerError
                }
            return Response.text(status, "cache store: \(error)")
        }
    }
}

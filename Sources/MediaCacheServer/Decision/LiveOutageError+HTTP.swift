import HTTPTypes
import Hummingbird
import MediaCacheHLS

/// A live playlist whose origin has failed too long is a gateway timeout, which ends the
/// stream in every player.
extension LiveOutageError: HTTPResponseError {
    public var status: HTTPResponse.Status { .gatewayTimeout }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.text(status, description)
    }
}

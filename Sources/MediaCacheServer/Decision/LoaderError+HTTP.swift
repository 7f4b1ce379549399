import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheAPI

/// A loader's failure renders its own answer: an origin's error status passes through as it
/// is; other failures name their cause, with `502` for the origin's, `507` for a full disk
/// and `500` for the rest.
extension LoaderError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        switch self {
        case .origin(.status(let code, _)): HTTPResponse.Status(code: code)
        case .origin, .tooLarge: .badGateway
        case .store(.diskFull): HTTPResponse.Status(code: 507)
        case .rangeNotSatisfiable, .contentChanged, .cancelled, .store: .internalServerError
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.text(status, message)
    }

    /// The sentence the answer's body says.
    var message: String {
        switch self {
        case .origin(.status(let code, _)): "origin answered \(code)"
        case .origin(let failure): "\(failure)"
        case .tooLarge(let url, let limit): "\(url) is larger than \(ByteCountText.string(limit)); it is not served"
        default: "\(self)"
        }
    }
}

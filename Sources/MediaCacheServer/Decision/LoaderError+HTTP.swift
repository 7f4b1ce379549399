import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheAPI

/// A loader's failure renders its own answer: an origin's error status passes through as it
/// is; other failures name their cause, with `502` for the origin's, `507` for a full disk
/// and `500` for the rest.
extension LoaderError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        if let status = origin?.status { return HTTPResponse.Status(code: status) }
        if isDiskFull { return HTTPResponse.Status(code: 507) }
        return code == .origin || code == .tooLarge ? .badGateway : .internalServerError
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.text(status, answerText)
    }

    /// The sentence the answer's body says.
    var answerText: String {
        if let status = origin?.status { return "origin answered \(status)" }
        if code == .tooLarge, let url, let limit { return "\(url) is larger than \(ByteCountText.string(limit)); it is not served" }
        return message
    }
}

import HTTPTypes
import Hummingbird
import NIOCore

/// A request the proxy refuses: the status, the sentence its plain-text body says, and the
/// fields the status needs (`Allow` with a `405`). Thrown or decided wherever a request is
/// refused, and rendered as its own answer (Hummingbird's `HTTPResponseError`).
struct ProxyRefusal: HTTPResponseError, Equatable {
    let status: HTTPResponse.Status
    let message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The answer: the message as plain text, with the refusal's fields.
    var response: Response {
        var response = Response.text(status, message)
        response.headers.append(contentsOf: headers)
        return response
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}

extension Response {
    /// A plain-text answer: `message` and a line end.
    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

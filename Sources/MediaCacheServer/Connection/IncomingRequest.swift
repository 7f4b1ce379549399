import NIOCore
import NIOHTTP1

/// One request read from a connection: its head and its whole body, which the proxy's
/// routes keep small (JSON for the API, nothing for players).
enum IncomingRequest {
    case complete(HTTPRequestHead, body: ByteBuffer)
    /// The body passed the limit; the rest of it is not read.
    case bodyTooLarge(HTTPRequestHead)

    /// The next request on the connection; `nil` when the client closed it between requests.
    ///
    /// - Throws: ``IncomingRequestError`` when the parts do not form a request, and what the
    ///   connection throws.
    static func next(from parts: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator,
                     maxBody: Int) async throws -> IncomingRequest? {
        guard let first = try await parts.next() else { return nil }
        guard case .head(let head) = first else { throw IncomingRequestError.bodyWithoutHead }
        var body = ByteBuffer()
        while let part = try await parts.next() {
            switch part {
            case .head:
                throw IncomingRequestError.headInsideBody
            case .body(var bytes):
                guard body.readableBytes + bytes.readableBytes <= maxBody else { return .bodyTooLarge(head) }
                body.writeBuffer(&bytes)
            case .end:
                return .complete(head, body: body)
            }
        }
        throw IncomingRequestError.endedInsideRequest
    }
}

/// Why a connection's parts did not form a request.
enum IncomingRequestError: Error {
    case bodyWithoutHead
    case headInsideBody
    case endedInsideRequest
}

import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import NIOCore

/// Answers from the origin without storing anything, for when the store cannot keep bytes
/// (the disk is full, or the origin's answer is one the store keeps no record of): the player
/// keeps playing, and the error log says why these bytes cost the origin again.
///
/// A response whose bytes the loader could not store continues from the byte it reached
/// (``continueBody(from:to:validator:into:)``); a request the loader could record nothing
/// for is relayed whole (``respond(to:because:)``); a playlist the store cannot keep is read by
/// `PlaylistSource`. Backpressure is the connection's: each chunk is read from the origin once
/// the client took the one before, so memory stays at a chunk per response.
struct UncachedRelay: Sendable {
    let origin: any MediaOrigin
    let url: URL
    let tally: ResponseTally

    /// The answer to `request` from the origin as it is: its status for the client's range,
    /// length, type, validators and body. `failure` is why the cache could not answer; it goes
    /// to the error log.
    func respond(to request: Request, because failure: LoaderError) async throws(LoaderError) -> Response {
        tally.note("\(failure); answered from the origin without caching")
        var asked = OriginRequest(
            url: url, method: request.method == .head ? .head : .get,
            ifRange: request.headers[.ifRange])
        // A suffix range needs the length first; the whole body (200) answers it too.
        if let range = request.headers[.range], case .from(let first, let last)? = RangeResponsePlan.parse(range) {
            asked.bytes = ByteRequest(offset: first, end: last.map { $0 + 1 })
        }
        let response: OriginResponse
        do {
            response = try await origin.fetch(asked)
        } catch {
            throw LoaderError.origin(OriginError.failure(error, url: url))
        }
        var headers = ProxyResponder.headers(for: response.info)
        let total = response.info.totalLength.map(String.init) ?? "*"
        let status: HTTPResponse.Status
        var limit: Int64?
        switch response.kind {
        case .partial(let offset, let length):
            status = .partialContent
            limit = length
            if let length { headers[.contentRange] = "bytes \(offset)-\(offset + length - 1)/\(total)" }
        case .full:
            status = .ok
            limit = response.info.totalLength
        case .rangeNotSatisfiable:
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(total)"], body: ResponseBody())
        case .notModified:
            throw LoaderError.origin(.invalidResponse("304 Not Modified to a request without validators", url: url))
        }
        if let limit { headers[.contentLength] = "\(limit)" }
        guard request.method == .get else { return Response(status: status, headers: headers, body: ResponseBody()) }
        let body = OneTaskBody(response.body)
        return Response(
            status: status, headers: headers,
            body: ResponseBody { [limit] writer in
                try await send(body.body, to: limit, into: &writer)
                try await writer.finish(nil)
            })
    }

    /// Sends the bytes of the resource from `position` to `end` (its end when `nil`) from the
    /// origin, asking for the version `validator` names: the rest of a body the loader could
    /// not store; nothing when no byte is left. From byte 0, a whole body (`200`, as an origin
    /// that ignores ranges answers) is the rest of the body when it has the same validator.
    ///
    /// - Throws: ``LoaderError/origin(_:)`` when the origin answers with other bytes (the
    ///   resource changed, or a whole body came to a request past byte 0):
    ///   the client gets a short response, never bytes of two versions.
    func continueBody(
        from position: Int64, to end: Int64?, validator: String?,
        into writer: inout some ResponseBodyWriter
    ) async throws {
        if let end, position >= end { return }
        let response: OriginResponse
        do {
            response = try await origin.fetch(OriginRequest(url: url, bytes: ByteRequest(offset: position, end: end), ifRange: validator))
        } catch {
            throw LoaderError.origin(OriginError.failure(error, url: url))
        }
        switch response.kind {
        case .partial(position, _):
            break
        case .full where position == 0 && response.info.ifRangeValidator == validator:
            // From byte 0, the whole body of the same version (or, with no validator on either
            // side, of the only version anyone can name) is the rest of it.
            break
        default:
            throw LoaderError.origin(.invalidResponse("answered other bytes than the rest of the body from \(position)", url: url))
        }
        try await send(response.body, to: end.map { $0 - position }, into: &writer)
    }

    /// Writes `body`, at most `limit` bytes of it, counting them as the origin's.
    private func send(_ body: OriginBody, to limit: Int64?, into writer: inout some ResponseBodyWriter) async throws {
        var sent: Int64 = 0
        for try await chunk in body {
            let bytes = limit.map { chunk.prefix(Int(min(Int64(chunk.count), $0 - sent))) } ?? chunk
            tally.add(.bytes(ByteChunk(offset: sent, bytes: bytes, source: .network)))
            try await writer.write(ByteBuffer(bytes: bytes))
            sent += Int64(bytes.count)
            if let limit, sent >= limit { return }
        }
        if let limit, sent < limit {
            throw LoaderError.origin(.transport("the body ended at byte \(sent) of \(limit)", url: url))
        }
    }
}

/// An origin body handed from the task that received its head to the one task that writes
/// it to the client; nothing else touches it.
private struct OneTaskBody: @unchecked Sendable {
    let body: OriginBody

    init(_ body: OriginBody) {
        self.body = body
    }
}

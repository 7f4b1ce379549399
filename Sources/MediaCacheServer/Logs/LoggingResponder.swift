import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import NIOCore

/// The fields of the proxy's logs.
///
/// Access log: `date time c-ip cs-method cs-uri sc-status sc-bytes x-cache-bytes x-origin-bytes
/// time-taken` — the body bytes sent, those of them that were cached when the read began and
/// those the origin delivered during it, and the seconds from request to the body's end.
/// Error log: `date time c-ip cs-method cs-uri sc-status x-error`, the error being the message
/// sent to the client, why the body ended early (an origin or store failure; a client that
/// hangs up is no error), or why a body was served without the cache (a full disk).
public enum ProxyLogFields {
    /// The access log's fields.
    public static let access = [
        "date", "time", "c-ip", "cs-method", "cs-uri", "sc-status", "sc-bytes", "x-cache-bytes", "x-origin-bytes", "time-taken",
    ]
    /// The error log's fields.
    public static let error = ["date", "time", "c-ip", "cs-method", "cs-uri", "sc-status", "x-error"]
}

/// Writes one access-log line per response once its body is written (or has failed), and an
/// error-log line for every response with a status of 400 or more, every body the cache
/// could not complete and every body served despite a problem, such as a full disk (see
/// ``ProxyLogFields``). A token in a `/t/<token>/` prefix is written as `/t/-/`.
struct LoggingResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ProxyRequestContext {
    let log: ProxyLog
    let inner: Inner

    func respond(to request: Request, context: ProxyRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        let entry = ProxyLog.Entry(
            client: context.remoteAddress, method: request.method.rawValue,
            target: request.head.path ?? "/")
        var response: Response
        do {
            response = try await inner.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            log.record(entry, status: 500, sent: 0, counts: context.tally.snapshot, start: start, error: "\(error)")
            throw error
        }
        let status = response.status.code
        let body = response.body
        let tally = context.tally
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let written = WrittenBody(keepsText: status >= 400)
            do {
                try await body.write(CountingWriter(inner: writer, written: written))
            } catch {
                // A client that hangs up mid-body is no error of ours: the access line shows
                // the short count. A failure of the origin or the store is, and so is the
                // error response itself, however far its text got.
                let counts = tally.snapshot
                log.record(
                    entry, status: status, sent: written.count, counts: counts, start: start,
                    error: counts.failure ?? written.errorText)
                throw error
            }
            log.record(entry, status: status, sent: written.count, counts: tally.snapshot, start: start, error: written.errorText)
        }
        return response
    }
}

/// What a body writer has passed on: the byte count (of file spans, the bytes that left, as
/// the connection reports them) and, for an error, the first bytes of its text.
private final class WrittenBody: Sendable {
    let keepsText: Bool
    private let state = Locked((count: Int64(0), text: [UInt8]()))

    init(keepsText: Bool) {
        self.keepsText = keepsText
    }

    var count: Int64 { state.withLock(\.count) }

    /// The text of an error response (status 400 or more), trimmed; `nil` for any other.
    var errorText: String? {
        guard keepsText else { return nil }
        return String(decoding: state.withLock(\.text), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func add(_ count: Int64) {
        state.withLock { $0.count += count }
    }

    func add(_ buffer: ByteBuffer) {
        state.withLock { state in
            state.count += Int64(buffer.readableBytes)
            if keepsText, state.text.count < 512 {
                state.text += buffer.readableBytesView.prefix(512 - state.text.count)
            }
        }
    }
}

/// Passes writes through to the connection, noting them in a ``WrittenBody``.
private struct CountingWriter: FileSpanWriting {
    var inner: any ResponseBodyWriter
    let written: WrittenBody

    mutating func write(_ chunk: FileChunk) async throws {
        let written = written
        try await FileSpans.write(chunk.reportingSent { written.add($0.length) }, to: &inner)
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        written.add(buffer)
        try await inner.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await inner.finish(trailingHeaders)
    }
}

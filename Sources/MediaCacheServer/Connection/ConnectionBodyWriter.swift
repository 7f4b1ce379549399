import HTTPTypes
import Hummingbird
import MediaCache
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Writes one response on a connection: the head together with the first body part (one
/// write, so that a small answer leaves in one segment), then buffers and file spans, then
/// the end, and waits until its file spans are written, so that whoever counts the
/// response's bytes once it is written counts those that left (see ``FileRegionSender``).
struct ConnectionBodyWriter: FileSpanWriting {
    let output: ConnectionOutput
    let files: ConnectionFiles
    /// The head until the first part is written, shared by the copies the body makes of this writer.
    private let head: PendingHead

    init(output: ConnectionOutput, files: ConnectionFiles) {
        self.output = output
        self.files = files
        head = PendingHead()
    }

    /// `head` as the connection sends it: with the `Date` and `Server` headers and, when the
    /// connection closes after it, `Connection: close`.
    static func head(_ head: HTTPResponseHead, date: String, serverName: String, closing: Bool) -> HTTPResponseHead {
        var head = head
        head.headers.replaceOrAdd(name: "Date", value: date)
        head.headers.replaceOrAdd(name: "Server", value: serverName)
        if closing { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        return head
    }

    /// Writes `response`, with the `Date` and `Server` headers and, when the connection closes
    /// after it, `Connection: close`. A body that fails before its first byte still sends the
    /// head, so that the client sees a short response rather than none.
    func respond(with response: Response, date: String, serverName: String, closing: Bool) async throws {
        head.value = Self.head(HTTPResponseHead(response.head), date: date, serverName: serverName, closing: closing)
        do {
            try await response.body.write(self)
        } catch {
            if let unsent = self.head.take() { try? await output.write(.head(unsent)) }
            throw error
        }
    }

    func write(_ buffer: ByteBuffer) async throws {
        try await send(.body(.byteBuffer(buffer)))
    }

    func write(_ chunk: FileChunk) async throws {
        guard await files.queued.enter() else { throw ChannelError.ioOnClosedChannel }
        try await send(.body(.fileRegion(try files.region(for: chunk))))
    }

    /// Ends the response once its file spans are written; throws when the connection closed
    /// before they were.
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await send(.end(trailingHeaders.map(HTTPHeaders.init)))
        guard await files.queued.drained() else { throw ChannelError.ioOnClosedChannel }
    }

    private func send(_ part: HTTPServerResponsePart) async throws {
        if let head = head.take() {
            try await output.write(.head(head), part)
        } else {
            try await output.write(part)
        }
    }
}

/// A response head not written yet.
private final class PendingHead {
    var value: HTTPResponseHead?

    func take() -> HTTPResponseHead? {
        defer { value = nil }
        return value
    }
}

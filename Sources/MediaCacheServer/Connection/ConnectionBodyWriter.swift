import Foundation
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
    let regions: OpenRegions
    let queued: QueuedRegions
    /// The head until the first part is written, shared by the copies the body makes of this writer.
    private let head: PendingHead

    init(output: ConnectionOutput, regions: OpenRegions, queued: QueuedRegions) {
        self.output = output
        self.regions = regions
        self.queued = queued
        head = PendingHead()
    }

    /// Writes `response`, with the `Date` and `Server` headers and, when the connection closes
    /// after it, `Connection: close`. A body that fails before its first byte still sends the
    /// head, so that the client sees a short response rather than none.
    func respond(with response: Response, date: String, serverName: String, closing: Bool) async throws {
        var head = HTTPResponseHead(response.head)
        head.headers.replaceOrAdd(name: "Date", value: date)
        head.headers.replaceOrAdd(name: "Server", value: serverName)
        if closing { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        self.head.value = head
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
        guard await queued.enter() else { throw ChannelError.ioOnClosedChannel }
        guard let descriptor = chunk.span.takeDescriptor() else {
            queued.leave()
            throw MediaCache.IOError(operation: "send", path: "a cached span", code: EBADF)
        }
        let file = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
        regions.add(file)
        queued.expect(file) { chunk.sent($0) }
        let end = chunk.span.offset + chunk.span.length
        try await send(.body(.fileRegion(FileRegion(fileHandle: file, readerIndex: Int(chunk.span.offset), endIndex: Int(end)))))
    }

    /// Ends the response once its file spans are written; throws when the connection closed
    /// before they were.
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await send(.end(trailingHeaders.map(HTTPHeaders.init)))
        guard await queued.drained() else { throw ChannelError.ioOnClosedChannel }
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

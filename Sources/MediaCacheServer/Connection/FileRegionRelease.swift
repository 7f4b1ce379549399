import NIOCore
import NIOHTTP1

/// Closes the file of every region a response sends once the region is written, or has
/// failed because the connection closed, and lets the response queue the next
/// (``QueuedRegions``).
final class FileRegionRelease: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let queued: QueuedRegions

    init(queued: QueuedRegions) {
        self.queued = queued
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .body(.fileRegion(let region)) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { [queued] _ in
            try? region.fileHandle.close()
            queued.leave()
        }
        context.write(data, promise: written)
    }
}

/// The files one connection's responses handed to NIO, so that those a closing connection
/// dropped before they reached ``FileRegionRelease`` are closed too. Used by the connection's
/// task only.
final class OpenRegions {
    private var handles: [NIOFileHandle] = []

    /// Notes a file about to be written; forgets those closed since.
    func add(_ handle: NIOFileHandle) {
        handles.removeAll { !$0.isOpen }
        handles.append(handle)
    }

    /// Closes every file still open; call once the connection has closed.
    func closeAll() {
        for handle in handles { try? handle.close() }
        handles = []
    }
}

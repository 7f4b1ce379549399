import Foundation
import MediaCache
import NIOCore

/// The data files one connection's responses send: the descriptors handed to NIO
/// (``OpenRegions``), closed with the connection, and the regions queued and not yet written
/// (``QueuedRegions``).
struct ConnectionFiles: Sendable {
    let regions = OpenRegions()
    let queued = QueuedRegions()

    /// The region that sends `chunk`'s span, with its descriptor noted for closing and its
    /// report for ``FileRegionSender``. The caller has entered ``queued`` for it; when this
    /// throws, it has left again.
    func region(for chunk: FileChunk) throws -> FileRegion {
        guard let descriptor = chunk.span.takeDescriptor() else {
            queued.leave()
            throw MediaCache.IOError(operation: "send", path: "a cached span", code: EBADF)
        }
        let file = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
        regions.add(file)
        queued.expect(file) { chunk.sent($0) }
        let end = chunk.span.offset + chunk.span.length
        return FileRegion(fileHandle: file, readerIndex: Int(chunk.span.offset), endIndex: Int(end))
    }

    /// The connection closed: a response waiting to queue a region goes on to find its writes
    /// failing, and every descriptor still open is closed.
    func close() {
        queued.close()
        regions.closeAll()
    }
}

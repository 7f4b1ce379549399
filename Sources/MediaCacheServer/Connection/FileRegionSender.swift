import MediaCache
import NIOConcurrencyHelpers
import NIOCore

/// Sends each file region a response queues as parts (``parts(of:)``), tells the region's
/// report (``QueuedRegions/expect(_:reporting:)``) of every part once it is written, and once
/// the last part is written or has failed, closes the region's file and lets the response
/// queue the next (``QueuedRegions``).
///
/// The parts are what makes a large span cheap to count exactly: a response may hand the
/// connection all of a cached run at once, one task wake-up for the lot, and still count (in
/// its access-log line and the statistics) only the parts that left before its client went
/// away. Each part costs a write through the pipeline and a report to the statistics, so they
/// grow: a player that leaves within its first mebibytes (a swipe in a feed) is counted to
/// the mebibyte, and a long hit costs a part per 4 MiB, not per mebibyte.
///
/// It sits next to the socket, below the HTTP handlers: they see one region, and only the
/// socket sees its parts, so a part costs no walk through the HTTP pipeline.
///
/// While any region is being written, the connection sends whole TCP segments only
/// (``FullSegments``), and a head written before the region leaves in its first segment.
final class FileRegionSender: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The most bytes the first part of a region sends; each next part may send twice as many
    /// as the one before, up to ``largestPart``.
    static let firstPart = 1 << 20
    static let largestPart = 4 << 20

    private let queued: QueuedRegions
    /// Whole segments while spans are written (``FullSegments``); touched on the event loop only.
    private var segments = FullSegments()

    init(queued: QueuedRegions) {
        self.queued = queued
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .fileRegion(let region) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let report = queued.takeReport(for: region.fileHandle)
        let parts = Self.parts(of: region)
        let channel = context.channel
        segments.spanStarts(on: channel)
        for part in parts {
            let written = context.eventLoop.makePromise(of: Void.self)
            let isLast = part.endIndex == region.endIndex
            written.futureResult.assumeIsolated().whenComplete { [queued] result in
                if case .success = result {
                    report?(ByteRange(offset: Int64(part.readerIndex), length: Int64(part.readableBytes)))
                }
                // Parts complete in order, and a closing channel fails those left in order too.
                guard isLast else { return }
                self.segments.spanEnded(on: channel)
                try? region.fileHandle.close()
                queued.leave()
                promise?.completeWith(result)
            }
            context.write(wrapOutboundOut(.fileRegion(part)), promise: written)
        }
    }

    /// `region` as consecutive regions over the same file, the first of at most ``firstPart``
    /// bytes and each next of at most twice as many as the one before, up to ``largestPart``;
    /// one empty region for an empty one.
    static func parts(of region: FileRegion) -> [FileRegion] {
        var parts: [FileRegion] = []
        var start = region.readerIndex
        var size = firstPart
        repeat {
            let end = min(start + size, region.endIndex)
            parts.append(FileRegion(fileHandle: region.fileHandle, readerIndex: start, endIndex: end))
            start = end
            size = min(2 * size, largestPart)
        } while start < region.endIndex
        return parts
    }
}

/// The files one connection's responses handed to NIO, so that those a closing connection
/// dropped before they reached ``FileRegionSender`` are closed too.
final class OpenRegions: Sendable {
    private let handles = NIOLockedValueBox<[NIOFileHandle]>([])

    /// Notes a file about to be written; forgets those closed since.
    func add(_ handle: NIOFileHandle) {
        handles.withLockedValue { handles in
            handles.removeAll { !$0.isOpen }
            handles.append(handle)
        }
    }

    /// Closes every file still open; call once the connection has closed.
    func closeAll() {
        let open = handles.withLockedValue { handles in
            defer { handles = [] }
            return handles
        }
        for handle in open { try? handle.close() }
    }
}

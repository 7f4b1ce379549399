import Foundation
import MediaCache
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing
@testable import MediaCacheServer

/// A file region leaves in growing parts, the first of a mebibyte, each reported as it is written; the
/// file closes and the response may queue the next region once the last part is written or
/// has failed.
@Suite(.timeLimit(.minutes(2))) struct FileRegionSenderTests {
    @Test func aRegionIsSentInPartsEachReportedOnceWritten() async throws {
        let (channel, queued, file) = try Self.setUp()
        let sent = SentRanges()
        #expect(await queued.enter())
        queued.expect(file) { sent.add($0) }
        let start = 1000
        let (first, largest) = (FileRegionSender.firstPart, FileRegionSender.largestPart)
        let end = start + first + 2 * first + 2 * largest + 5
        let written = channel.write(IOData.fileRegion(FileRegion(fileHandle: file, readerIndex: start, endIndex: end)))
        #expect(sent.ranges.isEmpty, "nothing is reported before it is written")
        channel.flush()
        try await written.get()

        var parts: [FileRegion] = []
        while let part = try channel.readOutbound(as: IOData.self) {
            guard case .fileRegion(let region) = part else { Issue.record("not a file region: \(part)"); continue }
            parts.append(region)
        }
        // Each part twice the one before, up to the largest.
        #expect(parts.map { $0.endIndex - $0.readerIndex } == [first, 2 * first, largest, largest, 5])
        #expect(parts.first?.readerIndex == start && parts.last?.endIndex == end)
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.endIndex == $1.readerIndex })
        #expect(parts.allSatisfy { $0.fileHandle === file }, "the parts share the region's file")
        #expect(sent.ranges == parts.map { ByteRange(Int64($0.readerIndex), Int64($0.endIndex)) })
        #expect(!file.isOpen, "the file closes after the last part")
        #expect(await queued.drained(), "the region left the queue")
        _ = try? await channel.close()
    }

    @Test func partsThatFailReportNothingAndStillCloseTheFile() async throws {
        let (channel, queued, file) = try Self.setUp()
        // The client went away: the socket takes nothing more.
        try channel.pipeline.syncOperations.addHandler(FailingWrites(), position: .first)
        let sent = SentRanges()
        #expect(await queued.enter())
        queued.expect(file) { sent.add($0) }
        let region = FileRegion(fileHandle: file, readerIndex: 0, endIndex: 3 * FileRegionSender.firstPart)
        let written = channel.write(IOData.fileRegion(region))
        channel.flush()
        await #expect(throws: ChannelError.self) { try await written.get() }
        #expect(sent.ranges.isEmpty)
        #expect(!file.isOpen)
        #expect(await queued.drained(), "the failed region left the queue")
        _ = try? await channel.close()
    }

    @Test func otherPartsPassUnchanged() async throws {
        let (channel, _, file) = try Self.setUp()
        defer { try? file.close() }
        try await channel.writeAndFlush(IOData.byteBuffer(ByteBuffer(string: "abc"))).get()
        guard case .byteBuffer(let buffer)? = try channel.readOutbound(as: IOData.self) else {
            Issue.record("the buffer did not pass")
            return
        }
        #expect(String(buffer: buffer) == "abc")
        _ = try? await channel.close()
    }

    @Test func anEmptyRegionIsOneEmptyPart() throws {
        let file = try NIOFileHandle(_deprecatedPath: "/dev/null")
        defer { try? file.close() }
        let parts = FileRegionSender.parts(of: FileRegion(fileHandle: file, readerIndex: 7, endIndex: 7))
        #expect(parts.map { [$0.readerIndex, $0.endIndex] } == [[7, 7]])
    }

    private static func setUp() throws -> (EmbeddedChannel, QueuedRegions, NIOFileHandle) {
        let queued = QueuedRegions()
        let channel = EmbeddedChannel(handler: FileRegionSender(queued: queued))
        channel.closeFuture.whenComplete { _ in queued.close() }
        return (channel, queued, try NIOFileHandle(_deprecatedPath: "/dev/null"))
    }
}

/// Fails every write, as a socket whose peer has gone.
private final class FailingWrites: ChannelOutboundHandler {
    typealias OutboundIn = IOData

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        promise?.fail(ChannelError.ioOnClosedChannel)
    }
}

/// The ranges a region reported sent, in order.
private final class SentRanges: Sendable {
    private let state = NIOLockedValueBox<[ByteRange]>([])

    var ranges: [ByteRange] { state.withLockedValue { $0 } }

    func add(_ range: ByteRange) {
        state.withLockedValue { $0.append(range) }
    }
}

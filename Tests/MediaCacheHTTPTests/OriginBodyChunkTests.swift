import Foundation
import NIOCore
import Testing
@testable import MediaCacheHTTP

/// How one turn's body buffers become the chunk a fetch takes: a single buffer without a copy,
/// and never a chunk that a later write to the buffer could change.
@Suite(.timeLimit(.minutes(2))) struct OriginBodyChunkTests {
    /// A read's buffer whose first bytes were a response head, as the decoder leaves it.
    private func bodyBuffer(head: Int = 17, body: [UInt8]) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: head + body.count)
        buffer.writeRepeatingByte(0x48, count: head)
        buffer.writeBytes(body)
        buffer.moveReaderIndex(forwardBy: head)
        return buffer
    }

    @Test func aTurnsOnlyBufferBecomesItsChunkWithoutACopy() {
        let body = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let buffer = bodyBuffer(body: body)
        let chunk = OriginTransfer.Exchange.chunk(of: [buffer])
        #expect(Array(chunk) == body)
        let chunkBytes = chunk.withUnsafeBytes { $0.baseAddress }
        let bufferBytes = buffer.withUnsafeReadableBytes { $0.baseAddress }
        #expect(chunkBytes == bufferBytes)
    }

    @Test func aChunkOutlivesItsBufferAndIgnoresLaterWritesToIt() {
        let body = [UInt8](repeating: 0xAB, count: 1024)
        var buffer = bodyBuffer(body: body)
        let chunk = OriginTransfer.Exchange.chunk(of: [buffer])
        // The connection's reads write into a buffer they hold: with the chunk sharing its
        // storage, the write must go to a copy of it.
        buffer.setBytes([UInt8](repeating: 0, count: 1024), at: buffer.readerIndex)
        buffer = ByteBuffer()
        #expect(Array(chunk) == body)
    }

    @Test func aMostlyEmptyBufferIsCopiedSoThatAChunkKeepsLittleMoreThanItsBytes() {
        // A read of 1,000 bytes into a buffer sized for a mebibyte, as after a fast origin's body.
        var buffer = ByteBufferAllocator().buffer(capacity: 1 << 20)
        buffer.writeBytes([UInt8](repeating: 7, count: 1000))
        let chunk = OriginTransfer.Exchange.chunk(of: [buffer])
        #expect(Array(chunk) == [UInt8](repeating: 7, count: 1000))
        let chunkBytes = chunk.withUnsafeBytes { $0.baseAddress }
        let bufferBytes = buffer.withUnsafeReadableBytes { $0.baseAddress }
        #expect(chunkBytes != bufferBytes)
    }

    @Test func aTurnsSeveralBuffersAreJoinedInOrder() {
        let first = bodyBuffer(body: [1, 2, 3])
        let second = bodyBuffer(head: 0, body: [4, 5])
        let chunk = OriginTransfer.Exchange.chunk(of: [first, second])
        #expect(Array(chunk) == [1, 2, 3, 4, 5])
        #expect(chunk.count == 5)
    }

    @Test func anEmptyBufferIsAnEmptyChunk() {
        #expect(OriginTransfer.Exchange.chunk(of: [bodyBuffer(body: [])]).isEmpty)
    }
}

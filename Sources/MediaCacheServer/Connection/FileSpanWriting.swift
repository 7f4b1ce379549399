import Hummingbird
import MediaCache
import NIOCore

/// A response body writer that sends cached bytes straight from the store's data file
/// (`sendfile`) instead of copying them through a buffer.
protocol FileSpanWriting: ResponseBodyWriter {
    /// Writes the bytes of `chunk`'s span, reporting each run of them as it is sent
    /// (``FileChunk/sent(_:)``).
    mutating func write(_ chunk: FileChunk) async throws
}

enum FileSpans {
    /// The largest buffer a writer that cannot send files gets a span's bytes in.
    static let bufferSize = 256 << 10

    /// Writes `chunk` to `writer`: as a file span when the writer sends files, otherwise read
    /// straight into buffers of at most ``bufferSize`` bytes, each reported sent once written.
    static func write(_ chunk: FileChunk, to writer: inout any ResponseBodyWriter) async throws {
        if var files = writer as? any FileSpanWriting {
            try await files.write(chunk)
            writer = files
            return
        }
        var position: Int64 = 0
        while position < chunk.span.length {
            var buffer = ByteBufferAllocator().buffer(capacity: Int(min(Int64(bufferSize), chunk.span.length - position)))
            let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: buffer.capacity) { bytes in
                try chunk.span.read(from: position, into: bytes)
            }
            try await writer.write(buffer)
            chunk.sent(ByteRange(offset: chunk.span.offset + position, length: Int64(read)))
            position += Int64(read)
        }
    }
}

import Foundation

/// What a read delivers next to a caller that can send a file's bytes itself, such as a
/// server with `sendfile` (see ``ByteStream/Iterator/nextPart(fileSpansUpTo:)``): bytes in
/// memory, or cached bytes left in the store's data file.
public enum ReadPart: Sendable {
    /// Bytes in memory: from the network, or from a store that has no file to send.
    case bytes(ByteChunk)
    /// Cached bytes in the store's data file, to be sent from it.
    case file(FileChunk)

    /// The offset of the first byte.
    public var offset: Int64 {
        switch self {
        case .bytes(let chunk): chunk.offset
        case .file(let chunk): chunk.span.offset
        }
    }

    /// How many bytes the part holds.
    public var count: Int64 {
        switch self {
        case .bytes(let chunk): Int64(chunk.bytes.count)
        case .file(let chunk): chunk.span.length
        }
    }

    /// Whether the bytes were cached when the read began or came from the origin since.
    public var source: ByteChunk.Source {
        switch self {
        case .bytes(let chunk): chunk.source
        case .file(let chunk): chunk.source
        }
    }
}

/// Bytes delivered to a reader as a span of the store's data file.
///
/// Handing a span over is not serving it: the caller may send part of it, or none, when its
/// client goes away. So the loader's statistics count a span's bytes as the caller reports
/// them sent with ``sent(_:)``, not when the span is handed over.
///
/// ```swift
/// if case .file(let chunk) = try await read.nextPart(fileSpansUpTo: .max) {
///     // ... once a run of the span's bytes has left for the client:
///     chunk.sent(ByteRange(offset: chunk.span.offset, length: 1 << 20))
/// }
/// ```
public struct FileChunk: Sendable {
    /// Where the bytes are.
    public var span: StoredFileSpan
    /// Whether the bytes were cached when the read began or came from the origin since.
    public var source: ByteChunk.Source
    /// Counts bytes of the span as sent; the read that hands the chunk over sets it.
    var onSent: @Sendable (ByteRange) -> Void = { _ in }

    /// Creates a chunk.
    public init(span: StoredFileSpan, source: ByteChunk.Source) {
        self.span = span
        self.source = source
    }

    /// Reports that the bytes of `range` (offsets in the resource, within the span) were sent.
    public func sent(_ range: ByteRange) {
        onSent(range)
    }

    /// This chunk, with `observer` told of every range reported sent after the reports the
    /// chunk makes already: for a layer that counts what its response sent.
    public func reportingSent(to observer: @escaping @Sendable (ByteRange) -> Void) -> FileChunk {
        var chunk = self
        let report = onSent
        chunk.onSent = { range in
            report(range)
            observer(range)
        }
        return chunk
    }
}

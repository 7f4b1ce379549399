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
public struct FileChunk: Sendable {
    /// Where the bytes are.
    public var span: StoredFileSpan
    /// Whether the bytes were cached when the read began or came from the origin since.
    public var source: ByteChunk.Source

    /// Creates a chunk.
    public init(span: StoredFileSpan, source: ByteChunk.Source) {
        self.span = span
        self.source = source
    }
}

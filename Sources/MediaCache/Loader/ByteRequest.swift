import Foundation

/// The bytes a reader asks for: from `offset`, `length` of them or everything to the end.
///
/// ```swift
/// ByteRequest(offset: 0, length: 2)        // AVPlayer's content-information probe
/// ByteRequest(offset: 1_000_000)           // "bytes=1000000-"
/// ```
public struct ByteRequest: Hashable, Sendable, CustomStringConvertible {
    /// The first byte wanted.
    public var offset: Int64
    /// How many bytes are wanted; `nil` means everything to the end of the resource.
    public var length: Int64?
    /// Whether the reader will take every byte it asks for, as a client that asked for a whole
    /// response (no `Range` header) does. An open-ended fetch starts with
    /// ``MediaLoader/Configuration/initialReadahead`` beyond its reader; for such a reader it asks for
    /// ``MediaLoader/Configuration/readahead`` once the first bytes were taken, where for a player's
    /// `bytes=0-`, which often stops after a few hundred kilobytes, the lead grows with what
    /// the player takes.
    public var takesAll: Bool

    /// Creates a request; `length` `nil` reads to the end.
    ///
    /// ```swift
    /// ByteRequest(offset: 0, takesAll: true)   // a GET without a Range header
    /// ```
    public init(offset: Int64, length: Int64? = nil, takesAll: Bool = false) {
        precondition(offset >= 0 && (length ?? 0) >= 0, "invalid byte request \(offset), \(String(describing: length))")
        self.offset = offset
        self.length = length
        self.takesAll = takesAll
    }

    /// The request for the bytes from `offset` to one before `end`, or to the end of the
    /// resource when `end` is `nil`.
    ///
    /// ```swift
    /// ByteRequest(offset: 100, end: 200)       // "bytes=100-199"
    /// ```
    public init(offset: Int64, end: Int64?) {
        self.init(offset: offset, length: end.map { $0 - offset })
    }

    /// The request for exactly `range`.
    public init(_ range: ByteRange) {
        self.init(offset: range.lowerBound, length: range.length)
    }

    /// One past the last byte wanted, when a length was given.
    public var end: Int64? { length.map { offset + $0 } }

    /// As a `Range` header value, which ``OriginRequest`` sends: `bytes=100-199`.
    public var description: String {
        "bytes=\(offset)-" + (end.map { "\($0 - 1)" } ?? "")
    }
}

/// Bytes delivered to a reader.
public struct ByteChunk: Hashable, Sendable {
    /// Where the bytes came from, for statistics and logs.
    public enum Source: String, Hashable, Sendable, Codable {
        /// They were cached when the read began.
        case cache
        /// The origin delivered them during the read (possibly ahead of the reader).
        case network
    }

    /// The offset of the first byte.
    public var offset: Int64
    /// The bytes.
    public var bytes: Data
    /// Whether the bytes were cached when the read began or came from the origin since.
    public var source: Source

    /// Creates a chunk.
    public init(offset: Int64, bytes: Data, source: Source) {
        self.offset = offset
        self.bytes = bytes
        self.source = source
    }
}

/// A half-open range of byte offsets, `lowerBound..<upperBound`, within one resource.
///
/// HTTP speaks in inclusive ranges (`bytes=0-99`); MediaCache converts at the edge and
/// uses half-open ranges everywhere inside, so that lengths are `upperBound - lowerBound`.
///
/// ```swift
/// let header = ByteRange(0, 1024)            // the first KiB
/// let tail = ByteRange(offset: 4096, length: 512)
/// header.length                              // 1024
/// ```
public struct ByteRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The first byte offset in the range.
    public let lowerBound: Int64
    /// The offset one past the last byte in the range.
    public let upperBound: Int64

    /// Creates the range `lowerBound..<upperBound`.
    ///
    /// - Precondition: `0 <= lowerBound <= upperBound`.
    public init(_ lowerBound: Int64, _ upperBound: Int64) {
        precondition(lowerBound >= 0 && lowerBound <= upperBound, "invalid byte range \(lowerBound)..<\(upperBound)")
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    private enum CodingKeys: String, CodingKey {
        case lowerBound, upperBound
    }

    /// Decodes `{"lowerBound": a, "upperBound": b}`, refusing what is not a valid range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let lower = try container.decode(Int64.self, forKey: .lowerBound)
        let upper = try container.decode(Int64.self, forKey: .upperBound)
        guard lower >= 0, lower <= upper else {
            throw DecodingError.dataCorruptedError(
                forKey: .upperBound, in: container,
                debugDescription: "\(lower)..<\(upper) is not a byte range")
        }
        self.init(lower, upper)
    }

    /// Creates the range of `length` bytes starting at `offset`.
    public init(offset: Int64, length: Int64) {
        self.init(offset, offset + length)
    }

    /// The number of bytes in the range.
    public var length: Int64 { upperBound - lowerBound }

    /// Whether the range holds no bytes.
    public var isEmpty: Bool { lowerBound == upperBound }

    /// Whether `offset` lies inside the range.
    public func contains(_ offset: Int64) -> Bool {
        offset >= lowerBound && offset < upperBound
    }

    /// Whether every byte of `other` lies inside this range.
    public func contains(_ other: ByteRange) -> Bool {
        other.lowerBound >= lowerBound && other.upperBound <= upperBound
    }

    /// Whether the two ranges share at least one byte.
    public func overlaps(_ other: ByteRange) -> Bool {
        lowerBound < other.upperBound && other.lowerBound < upperBound
    }

    /// The bytes common to both ranges, or `nil` when they share none.
    public func intersection(_ other: ByteRange) -> ByteRange? {
        let lower = max(lowerBound, other.lowerBound)
        let upper = min(upperBound, other.upperBound)
        return lower < upper ? ByteRange(lower, upper) : nil
    }

    public var description: String { "\(lowerBound)..<\(upperBound)" }
}

import Foundation

/// What the origin said about a resource: its length, type, range support and validators.
///
/// A length, once known, is the true total length taken from `Content-Range` or
/// `Content-Length`, never a guess; ``MediaStore`` refuses to record a length of zero or less.
public struct ContentInfo: Hashable, Sendable, Codable {
    /// The total length in bytes, or `nil` while unknown (for example a chunked response).
    public var totalLength: Int64?
    /// The MIME type the origin reported, if any.
    public var mimeType: String?
    /// Whether the origin answers byte-range requests with `206 Partial Content`.
    public var acceptsRanges: Bool
    /// The strong or weak entity tag, exactly as the origin sent it (quotes included).
    public var etag: String?
    /// The `Last-Modified` header value, exactly as the origin sent it.
    public var lastModified: String?
    /// Where the content was answered from after redirects, when that is not the requested URL.
    /// Relative references inside the content (an HLS playlist's URIs) resolve against it.
    public var finalURL: URL?

    /// Creates content information.
    public init(
        totalLength: Int64? = nil,
        mimeType: String? = nil,
        acceptsRanges: Bool = true,
        etag: String? = nil,
        lastModified: String? = nil,
        finalURL: URL? = nil
    ) {
        self.totalLength = totalLength
        self.mimeType = mimeType
        self.acceptsRanges = acceptsRanges
        self.etag = etag
        self.lastModified = lastModified
        self.finalURL = finalURL
    }

    /// Whether the origin gave a validator (`ETag` or `Last-Modified`) to revalidate against.
    public var hasValidator: Bool { etag != nil || lastModified != nil }

    /// The validator to send in `If-Range`: the entity tag when strong, else `Last-Modified`.
    public var ifRangeValidator: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// Whether `other` describes a different version of the content than `self`.
    ///
    /// Versions differ when both know the total length and the lengths differ, when both carry
    /// an entity tag and the tags differ, or, when the tags cannot be compared (either side
    /// lacks one), when both carry `Last-Modified` and the dates differ. Missing information
    /// never counts as a change.
    public func isDifferentVersion(from other: ContentInfo) -> Bool {
        if let length = totalLength, let otherLength = other.totalLength, length != otherLength {
            return true
        }
        if let etag, let otherTag = other.etag {
            return etag != otherTag
        }
        if let lastModified, let otherDate = other.lastModified {
            return lastModified != otherDate
        }
        return false
    }
}

/// A counter that changes whenever a resource's content is known to have changed.
///
/// Bytes are always written and read for one generation; bytes of an older generation are
/// never served as part of a newer one.
public struct Generation: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The counter's value; the first generation of a resource is 1.
    public let value: Int64

    /// Creates a generation from its counter.
    public init(_ value: Int64) {
        self.value = value
    }

    /// The generation of a newly created resource.
    public static let initial = Generation(1)

    /// The generation after this one.
    public var next: Generation { Generation(value + 1) }

    public static func < (lhs: Generation, rhs: Generation) -> Bool { lhs.value < rhs.value }

    public var description: String { "g\(value)" }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

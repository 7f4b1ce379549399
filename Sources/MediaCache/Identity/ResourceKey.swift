import Foundation

/// The stable identity of a cached resource, derived from its URL by a ``CacheKeyNormalizer``.
///
/// Two URLs with the same key share one cache entry: a signed CDN URL whose token changes on
/// every request keeps hitting the same bytes when the normaliser drops the token.
public struct ResourceKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The key's text, as stored in the index.
    public let rawValue: String

    /// Creates a key from its stored text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ResourceKey, rhs: ResourceKey) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

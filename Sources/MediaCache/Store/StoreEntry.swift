import Foundation

/// One cached resource as listed by ``MediaStore/entries()``.
public struct StoreEntry: Hashable, Sendable, Codable {
    /// The cache key.
    public var key: ResourceKey
    /// The URL the resource was first stored from.
    public var url: String
    /// Bytes of the current generation held on disk.
    public var cachedBytes: Int64
    /// The total length, when known.
    public var totalLength: Int64?
    /// The MIME type the origin reported.
    public var mimeType: String?
    /// Whether the entry is pinned (an offline download), so never evicted.
    public var isPinned: Bool
    /// When the resource was last read or written.
    public var lastAccess: Date
    /// The content generation.
    public var generation: Generation

    /// The cached share of the resource from 0 to 100, or `nil` while the length is unknown.
    public var percentCached: Double? {
        guard let totalLength, totalLength > 0 else { return nil }
        return Double(cachedBytes) * 100 / Double(totalLength)
    }
}

/// Totals over the whole store.
public struct StoreUsage: Hashable, Sendable, Codable {
    /// Number of stored resources.
    public var entryCount: Int
    /// Bytes cached over all resources.
    public var cachedBytes: Int64
    /// Number of pinned resources.
    public var pinnedCount: Int
    /// Bytes cached in pinned resources.
    public var pinnedBytes: Int64
}

/// A stored resource's identity, description and cached bytes.
public struct ResourceRecord: Hashable, Sendable {
    /// The cache key.
    public var key: ResourceKey
    /// The URL the resource was first stored from.
    public var url: String
    /// What the origin said about the content.
    public var contentInfo: ContentInfo
    /// The content generation that bytes must be written and read for.
    public var generation: Generation
    /// Whether the resource is pinned.
    public var isPinned: Bool
    /// The byte ranges that can be read now.
    public var available: ByteRangeSet
}

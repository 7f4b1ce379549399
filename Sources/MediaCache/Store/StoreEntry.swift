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

    init(
        key: ResourceKey, url: String, cachedBytes: Int64, totalLength: Int64?, mimeType: String?,
        isPinned: Bool, lastAccess: Date, generation: Generation
    ) {
        self.key = key
        self.url = url
        self.cachedBytes = cachedBytes
        self.totalLength = totalLength
        self.mimeType = mimeType
        self.isPinned = isPinned
        self.lastAccess = lastAccess
        self.generation = generation
    }

    private enum CodingKeys: String, CodingKey {
        case key, url, cachedBytes, totalLength, percentCached, mimeType, isPinned, lastAccess, generation
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(ResourceKey.self, forKey: .key)
        url = try container.decode(String.self, forKey: .url)
        cachedBytes = try container.decode(Int64.self, forKey: .cachedBytes)
        totalLength = try container.decodeIfPresent(Int64.self, forKey: .totalLength)
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType)
        isPinned = try container.decode(Bool.self, forKey: .isPinned)
        lastAccess = try container.decode(Date.self, forKey: .lastAccess)
        generation = try container.decode(Generation.self, forKey: .generation)
    }

    /// Encodes every field and ``percentCached``; absent values are written as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(url, forKey: .url)
        try container.encode(cachedBytes, forKey: .cachedBytes)
        try container.encode(totalLength, forKey: .totalLength)
        try container.encode(percentCached, forKey: .percentCached)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encode(isPinned, forKey: .isPinned)
        try container.encode(lastAccess, forKey: .lastAccess)
        try container.encode(generation, forKey: .generation)
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

    /// The totals over `entries`.
    public init(entries: [StoreEntry]) {
        let pinned = entries.filter(\.isPinned)
        entryCount = entries.count
        cachedBytes = entries.reduce(0) { $0 + $1.cachedBytes }
        pinnedCount = pinned.count
        pinnedBytes = pinned.reduce(0) { $0 + $1.cachedBytes }
    }
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
    /// When the origin last confirmed ``contentInfo`` (a fetch that created the resource or a
    /// new generation, or a revalidation); `nil` for resources stored by a version that did
    /// not record it.
    public var validatedAt: Date?

    /// Whether every byte of a resource of known length can be read now.
    public var isComplete: Bool {
        guard let length = contentInfo.totalLength else { return false }
        return available.contiguousLength(from: 0) >= length
    }
}

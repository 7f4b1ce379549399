import Foundation
import MediaCache

/// One entry of `GET /api/entries`: the ``StoreEntry`` fields, the cached ranges and the path
/// that plays it through the proxy.
public struct EntryReport: Hashable, Sendable, Codable {
    /// The stored resource.
    public var entry: StoreEntry
    /// The byte ranges held, in order.
    public var cachedRanges: [ByteRange]
    /// The proxy path that plays the entry, such as `/https/cdn.example/clip.mp4`.
    public var playPath: String?

    /// Creates a report.
    public init(entry: StoreEntry, cachedRanges: [ByteRange], playPath: String?) {
        self.entry = entry
        self.cachedRanges = cachedRanges
        self.playPath = playPath
    }

    private enum CodingKeys: String, CodingKey {
        case cachedRanges, playPath
    }

    public init(from decoder: any Decoder) throws {
        entry = try StoreEntry(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cachedRanges = try container.decode([ByteRange].self, forKey: .cachedRanges)
        playPath = try container.decodeIfPresent(String.self, forKey: .playPath)
    }

    /// Encodes the entry's fields and the report's side by side in one object.
    public func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cachedRanges, forKey: .cachedRanges)
        try container.encode(playPath, forKey: .playPath)
    }
}

/// The JSON form of the API, shared by the server, ``ProxyClient`` and the CLI's `--json`
/// output: sorted keys, unescaped slashes, ISO 8601 dates.
public enum APIJSON {
    /// An encoder for API answers.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder for API answers.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// The answer of `GET /api/stats`.
public struct StatsReport: Hashable, Sendable, Codable {
    /// The cache directory.
    public var directory: String
    /// Totals over the stored resources.
    public var usage: StoreUsage
    /// What the cache has served since the server started; `nil` when the store was opened
    /// directly rather than asked of a running server.
    public var statistics: CacheStatistics?

    /// Creates a report.
    public init(directory: String, usage: StoreUsage, statistics: CacheStatistics?) {
        self.directory = directory
        self.usage = usage
        self.statistics = statistics
    }
}

/// The answer of the `DELETE` endpoints.
public struct RemovalReport: Hashable, Sendable, Codable {
    /// The keys removed.
    public var removed: [ResourceKey]

    /// Creates a report.
    public init(removed: [ResourceKey]) {
        self.removed = removed
    }
}

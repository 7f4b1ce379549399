import Foundation
import MediaCache

/// One entry of `GET /api/entries`: the ``StoreEntry`` fields, the cached ranges, the path
/// that plays it through the proxy and, from a running server, its statistics.
public struct EntryReport: Hashable, Sendable, Codable {
    /// The stored resource.
    public var entry: StoreEntry
    /// The byte ranges held, in order.
    public var cachedRanges: [ByteRange]
    /// The proxy path that plays the entry, such as `/https/cdn.example/clip.mp4`.
    public var playPath: String?
    /// What the running server served, preloaded and fetched of it since it started; `nil`
    /// when the store was opened directly, or nothing was read.
    public var statistics: CacheStatistics?

    /// Creates a report.
    public init(entry: StoreEntry, cachedRanges: [ByteRange], playPath: String?, statistics: CacheStatistics? = nil) {
        self.entry = entry
        self.cachedRanges = cachedRanges
        self.playPath = playPath
        self.statistics = statistics
    }

    private enum CodingKeys: String, CodingKey {
        case cachedRanges, playPath, statistics
    }

    public init(from decoder: any Decoder) throws {
        entry = try StoreEntry(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cachedRanges = try container.decode([ByteRange].self, forKey: .cachedRanges)
        playPath = try container.decodeIfPresent(String.self, forKey: .playPath)
        statistics = try container.decodeIfPresent(CacheStatistics.self, forKey: .statistics)
    }

    /// Encodes the entry's fields and the report's side by side in one object.
    public func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cachedRanges, forKey: .cachedRanges)
        try container.encode(playPath, forKey: .playPath)
        try container.encodeIfPresent(statistics, forKey: .statistics)
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
    /// The same per resource key, for every resource read since the server started; empty
    /// when the store was opened directly.
    public var resources: [String: CacheStatistics]

    /// Creates a report.
    public init(directory: String, usage: StoreUsage, statistics: CacheStatistics?, resources: [String: CacheStatistics] = [:]) {
        self.directory = directory
        self.usage = usage
        self.statistics = statistics
        self.resources = resources
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

/// The body of `POST /api/preload`: `{"urls": [...], "seconds": S}`, with `"bytes": N` or
/// `"full": true` instead of seconds, and an optional `"priority": P` (higher runs first).
public struct PreloadRequest: Hashable, Sendable, Codable {
    /// The origin URLs to preload.
    public var urls: [String]
    /// Seconds of each to preload.
    public var seconds: Double?
    /// Bytes of each to preload.
    public var bytes: Int64?
    /// Whether to preload each whole.
    public var full: Bool?
    /// The jobs' rank. Default: 0.
    public var priority: Int?

    /// Creates a request for `amount` of `urls`.
    public init(urls: [String], amount: PreloadAmount, priority: Int? = nil) {
        self.urls = urls
        self.priority = priority
        switch amount {
        case .seconds(let seconds): self.seconds = seconds
        case .bytes(let count): bytes = count
        case .full: full = true
        }
    }

    /// `text` as a URL a preload takes: http or https, with a host; `nil` otherwise.
    public static func url(from text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else { return nil }
        return url
    }

    /// The amount asked for, when exactly one valid amount is given.
    public var amount: PreloadAmount? {
        let given: [PreloadAmount] = [seconds.map { .seconds($0) }, bytes.map { .bytes($0) }, full == true ? .full : nil]
            .compactMap { $0 }
        guard given.count == 1, let amount = given.first, amount.isValid else { return nil }
        return amount
    }
}

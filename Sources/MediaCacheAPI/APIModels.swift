import Foundation
import MediaCache

/// One entry of `GET /api/entries`: the `StoreEntry` fields, the cached ranges, the path
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
    /// For the top playlist of an HLS asset, the whole asset; `nil` for any other entry.
    public var asset: AssetReport?

    /// Creates a report.
    public init(
        entry: StoreEntry, cachedRanges: [ByteRange], playPath: String?, statistics: CacheStatistics? = nil,
        asset: AssetReport? = nil
    ) {
        self.entry = entry
        self.cachedRanges = cachedRanges
        self.playPath = playPath
        self.statistics = statistics
        self.asset = asset
    }

    private enum CodingKeys: String, CodingKey {
        case cachedRanges, playPath, statistics, asset
    }

    public init(from decoder: any Decoder) throws {
        entry = try StoreEntry(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cachedRanges = try container.decode([ByteRange].self, forKey: .cachedRanges)
        playPath = try container.decodeIfPresent(String.self, forKey: .playPath)
        statistics = try container.decodeIfPresent(CacheStatistics.self, forKey: .statistics)
        asset = try container.decodeIfPresent(AssetReport.self, forKey: .asset)
    }

    /// Encodes the entry's fields and the report's side by side in one object.
    public func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cachedRanges, forKey: .cachedRanges)
        try container.encode(playPath, forKey: .playPath)
        try container.encodeIfPresent(statistics, forKey: .statistics)
        try container.encodeIfPresent(asset, forKey: .asset)
    }
}

/// An HLS asset in `GET /api/entries`: every variant and rendition with the seconds of it that
/// are cached, and totals over all its resources.
public struct AssetReport: Hashable, Sendable, Codable {
    /// Bytes cached over every resource of the asset.
    public var cachedBytes: Int64
    /// The latest use of any of its resources.
    public var lastAccess: Date?
    /// Its media playlists (variants and renditions), with seconds recorded and cached.
    public var playlists: [StoreAsset.Playlist]
    /// How many resources belong to it.
    public var memberCount: Int
    /// Its stored resources, with `?members=true` (`mediacache ls --members`); `nil` otherwise.
    public var members: [EntryReport]?
    /// Its resources' statistics added up; `nil` as for ``EntryReport/statistics``.
    public var statistics: CacheStatistics?

    /// Creates a report.
    public init(
        cachedBytes: Int64, lastAccess: Date?, playlists: [StoreAsset.Playlist], memberCount: Int,
        members: [EntryReport]? = nil, statistics: CacheStatistics? = nil
    ) {
        self.cachedBytes = cachedBytes
        self.lastAccess = lastAccess
        self.playlists = playlists
        self.memberCount = memberCount
        self.members = members
        self.statistics = statistics
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

    private enum CodingKeys: String, CodingKey {
        case directory, usage, statistics, resources
    }

    /// Encodes every field, `statistics` as `null` when there are none, so that scripts see one
    /// shape whether or not a server answered.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directory, forKey: .directory)
        try container.encode(usage, forKey: .usage)
        try container.encode(statistics, forKey: .statistics)
        try container.encode(resources, forKey: .resources)
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
/// `"full": true` instead of seconds (none: `standard`, 10 s), an optional
/// `"priority": P` (higher runs first, from -1000 to 1000) and, for HLS, an optional
/// `"bandwidth": BPS` to choose the variant by (the best within it; none: the first listed).
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
    /// For HLS, the bits per second the variant is chosen within; `nil` for the first listed.
    public var bandwidth: Int?

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

    private enum CodingKeys: String, CodingKey {
        case urls, seconds, bytes, full, priority, bandwidth
    }

    /// Decodes a request; numbers out of range are refused here, naming their field.
    ///
    /// - Throws: `InputError` for `bytes` or `priority` that are not whole numbers in their
    ///   range, and the decoder's error for JSON of another shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        urls = try container.decode([String].self, forKey: .urls)
        seconds = try container.decodeIfPresent(Double.self, forKey: .seconds)
        full = try container.decodeIfPresent(Bool.self, forKey: .full)
        bytes = try Self.integer(container, .bytes, in: ByteSize.range, what: "a number of bytes")
        priority = try Self.integer(
            container, .priority, in: Int64(Preloader.priorityRange.lowerBound)...Int64(Preloader.priorityRange.upperBound),
            what: "a priority"
        ).map(Int.init)
        bandwidth = try Self.integer(container, .bandwidth, in: 1...Int64(Int32.max) * 1_000, what: "bits per second").map(Int.init)
    }

    /// A JSON number read as a double first, so that one too large for an integer is refused
    /// with its range rather than as malformed JSON.
    private static func integer(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys,
        in range: ClosedRange<Int64>, what: String
    ) throws -> Int64? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw InputError(field: key.stringValue, value: "\(value)", accepted: "\(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int64(value)
    }

    /// The amount asked for: `standard` when none is given.
    ///
    /// - Throws: `InputError` when more than one amount is given, or one out of range.
    public func checkedAmount() throws(InputError) -> PreloadAmount {
        let given: [PreloadAmount] = [seconds.map { .seconds($0) }, bytes.map { .bytes($0) }, full == true ? .full : nil]
            .compactMap { $0 }
        guard given.count <= 1 else {
            throw InputError(
                field: "seconds, bytes, full", value: given.map(\.description).joined(separator: " and "),
                accepted: "at most one of a positive \"seconds\", a positive \"bytes\" or \"full\": true")
        }
        return try (given.first ?? .standard).checked()
    }
}

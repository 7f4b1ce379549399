/// What the cache has done for its players, overall or for one resource.
///
/// A byte counts as served from the cache when it was stored before the read began, else as
/// from the network. Only playback reads are served bytes; what preloads bring is counted as
/// preloaded, and as played once a player gets it. The two bytes a content probe keeps are
/// stored before the read that follows it, so a cold read after ``MediaLoader/contentRecord(for:purpose:)``
/// counts them as cached (the proxy answers a cold `GET` without a probe).
///
/// ```swift
/// let stats = loader.statistics
/// print("hit ratio \(stats.hitRatio ?? 0), saved \(stats.bytesSaved) bytes")
/// print("preloaded \(stats.bytesPreloaded), of which played \(stats.bytesPreloadedPlayed)")
/// ```
public struct CacheStatistics: Hashable, Sendable, Codable {
    /// Bytes players got that were cached when they asked.
    public var bytesFromCache: Int64 = 0
    /// Bytes players waited for the origin to deliver.
    public var bytesFromNetwork: Int64 = 0
    /// Bytes received from the origin and stored, for players and preloads alike.
    public var bytesFromOrigin: Int64 = 0
    /// Bytes preloads brought from the origin.
    public var bytesPreloaded: Int64 = 0
    /// Preloaded bytes that a player got later, each counted once.
    public var bytesPreloadedPlayed: Int64 = 0

    /// Creates statistics with the given counts.
    public init(
        bytesFromCache: Int64 = 0, bytesFromNetwork: Int64 = 0, bytesFromOrigin: Int64 = 0,
        bytesPreloaded: Int64 = 0, bytesPreloadedPlayed: Int64 = 0
    ) {
        self.bytesFromCache = bytesFromCache
        self.bytesFromNetwork = bytesFromNetwork
        self.bytesFromOrigin = bytesFromOrigin
        self.bytesPreloaded = bytesPreloaded
        self.bytesPreloadedPlayed = bytesPreloadedPlayed
    }

    /// Bytes served to players in all.
    public var bytesServed: Int64 { bytesFromCache + bytesFromNetwork }

    /// Origin traffic the cache spared: every byte served from the cache is one not downloaded
    /// again.
    public var bytesSaved: Int64 { bytesFromCache }

    /// Preloaded bytes no player has got (yet): what preloading cost without a use so far.
    public var bytesPreloadedUnplayed: Int64 { bytesPreloaded - bytesPreloadedPlayed }

    /// The share of served bytes that came from the cache, from 0 to 1; `nil` before any byte
    /// was served.
    public var hitRatio: Double? {
        bytesServed == 0 ? nil : Double(bytesFromCache) / Double(bytesServed)
    }

    /// The counts of `lhs` and `rhs` added, for a roll-up such as an HLS asset's.
    public static func + (lhs: CacheStatistics, rhs: CacheStatistics) -> CacheStatistics {
        CacheStatistics(
            bytesFromCache: lhs.bytesFromCache + rhs.bytesFromCache,
            bytesFromNetwork: lhs.bytesFromNetwork + rhs.bytesFromNetwork,
            bytesFromOrigin: lhs.bytesFromOrigin + rhs.bytesFromOrigin,
            bytesPreloaded: lhs.bytesPreloaded + rhs.bytesPreloaded,
            bytesPreloadedPlayed: lhs.bytesPreloadedPlayed + rhs.bytesPreloadedPlayed)
    }

    private enum CodingKeys: String, CodingKey {
        case bytesFromCache, bytesFromNetwork, bytesFromOrigin, bytesPreloaded, bytesPreloadedPlayed
        case bytesServed, bytesSaved, bytesPreloadedUnplayed, hitRatio
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bytesFromCache = try container.decode(Int64.self, forKey: .bytesFromCache)
        bytesFromNetwork = try container.decode(Int64.self, forKey: .bytesFromNetwork)
        bytesFromOrigin = try container.decode(Int64.self, forKey: .bytesFromOrigin)
        bytesPreloaded = try container.decode(Int64.self, forKey: .bytesPreloaded)
        bytesPreloadedPlayed = try container.decode(Int64.self, forKey: .bytesPreloadedPlayed)
    }

    /// Encodes the counts and the derived ``bytesServed``, ``bytesSaved``,
    /// ``bytesPreloadedUnplayed`` and ``hitRatio``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bytesFromCache, forKey: .bytesFromCache)
        try container.encode(bytesFromNetwork, forKey: .bytesFromNetwork)
        try container.encode(bytesFromOrigin, forKey: .bytesFromOrigin)
        try container.encode(bytesPreloaded, forKey: .bytesPreloaded)
        try container.encode(bytesPreloadedPlayed, forKey: .bytesPreloadedPlayed)
        try container.encode(bytesServed, forKey: .bytesServed)
        try container.encode(bytesSaved, forKey: .bytesSaved)
        try container.encode(bytesPreloadedUnplayed, forKey: .bytesPreloadedUnplayed)
        try container.encode(hitRatio, forKey: .hitRatio)
    }
}

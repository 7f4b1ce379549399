import Logging

/// How a ``MediaStore`` names, batches, bounds and touches its files.
///
/// Every property has a default that suits a phone or a desktop player:
///
/// ```swift
/// var configuration = StoreConfiguration()
/// configuration.keyNormalizer = .droppingQueryItems(["token"])
/// configuration.eviction = EvictionPolicy([.totalBytes(200 << 20)])
/// let store = try MediaStore.open(at: cacheDirectory, configuration: configuration)
/// ```
public struct StoreConfiguration: Sendable {
    /// Maps URLs to cache keys. Default: ``CacheKeyNormalizer/wholeURL``.
    public var keyNormalizer: CacheKeyNormalizer = .wholeURL
    /// Limits enforced after commits and on open. Default: ``EvictionPolicy/default`` (1 GiB).
    public var eviction: EvictionPolicy = .default
    /// Written but unrecorded bytes that trigger a commit to the index. Each commit flushes the
    /// data files, and a flush stalls writes to the same file; 16 MiB keeps that under a few
    /// percent of a cold stream. After a crash at most this much (or one interval's worth) is
    /// fetched again. Default: 16 MiB.
    public var commitBatchBytes: Int64 = 16 << 20
    /// The longest written bytes wait before they are recorded in the index. Default: 1 s.
    public var commitInterval: Duration = .seconds(1)
    /// The file operations used for data files. Default: ``LocalFileSystem``.
    public var fileSystem: any FileSystem = LocalFileSystem()
    /// The source of time for access times, ages and commit scheduling. Default: ``SystemClock``.
    public var clock: any MediaCacheClock = SystemClock()
    /// Encrypts the data files at rest with the app's key; `nil` (the default) stores them as
    /// they are. See ``StoreEncryption``.
    public var encryption: StoreEncryption?
    /// Where the store reports commit failures and evictions.
    public var logger = Logger(label: "mediacache.store")

    /// Creates the default configuration.
    public init() {}
}

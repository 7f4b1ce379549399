import Logging

extension MediaStore {
    /// How a ``MediaStore`` names, batches, bounds and touches its files.
    ///
    /// Every property has a default that suits a phone or a desktop player:
    ///
    /// ```swift
    /// var configuration = MediaStore.Configuration()
    /// configuration.keyNormalizer = .droppingQueryItems(["token"])
    /// configuration.eviction = EvictionPolicy([.totalBytes(200 << 20)])
    /// let store = try MediaStore.open(at: cacheDirectory, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
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
        /// Where the data files of resources that are not pinned live, when not in the store's
        /// directory: a folder the system may empty under storage pressure (`Library/Caches` on
        /// iOS), while the index and the files of pinned resources (offline downloads) stay in the
        /// store's directory (Application Support on iOS). Pinning and unpinning move a file; one
        /// found in the other folder when the store opens (after a crash during a move, or from a
        /// store that kept every file together) is moved where it belongs, and one the system
        /// removed counts as not cached. `nil` (the default) keeps every file in the store's
        /// directory.
        public var purgeableDirectory: String?
        /// Encrypts the data files at rest with the app's key; `nil` (the default) stores them as
        /// they are. See ``StoreEncryption``.
        public var encryption: StoreEncryption?
        /// Where the store reports commit failures and evictions.
        public var logger = Logger(label: "mediacache.store")

        /// Creates the default configuration.
        public init() {}
    }
}

/// The former name of ``MediaStore/Configuration``.
@available(*, deprecated, renamed: "MediaStore.Configuration")
public typealias StoreConfiguration = MediaStore.Configuration

import Foundation

/// What a cache directory holds, read without writing anything: for listing a cache that this
/// process may read but not write (another user's, or one on a read-only file system).
///
/// It takes no ownership of the directory; when a store owns it, ask that store's server
/// instead. Bytes not yet committed by a running store are not seen.
///
/// ```swift
/// let snapshot = try StoreSnapshot.read(at: "/var/cache/mediacache")
/// for entry in snapshot.entries { print(entry.url, entry.cachedBytes) }
/// ```
public struct StoreSnapshot: Sendable {
    /// The cache directory.
    public let directory: String
    /// Every stored resource, most recently used first.
    public let entries: [StoreEntry]
    /// Every recorded HLS asset, with what the index holds of it.
    public let assets: [StoreAsset]
    private let ranges: [ResourceKey: ByteRangeSet]

    /// Reads the index in `directory`.
    ///
    /// - Throws: ``MediaStoreError/directoryInUse(path:ownerPID:)`` when a store owns the
    ///   directory (ask it instead), ``MediaStoreError/io(key:underlying:)`` when the lock
    ///   cannot be read, ``MediaStoreError/index(operation:underlying:)`` when the index cannot.
    public static func read(at directory: String) throws(MediaStoreError) -> StoreSnapshot {
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        try DirectoryLock.checkUnowned(directory: directory)
        do {
            let index = try StoreIndex(readingAt: directory + "/index.sqlite")
            defer { try? index.close() }
            let resources = try index.allResources()
            let cached = try index.cachedBytes()
            var ranges: [ResourceKey: ByteRangeSet] = [:]
            let entries = try resources.map { resource in
                ranges[resource.key] = try index.spans(of: resource.id)
                return StoreEntry(
                    key: resource.key, url: resource.url, cachedBytes: cached[resource.id] ?? 0,
                    totalLength: resource.info.totalLength, mimeType: resource.info.mimeType,
                    isPinned: resource.isPinned, lastAccess: resource.lastAccess, generation: resource.generation)
            }
            let byKey = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            return StoreSnapshot(
                directory: directory, entries: entries.sorted { ($0.lastAccess, $1.key) > ($1.lastAccess, $0.key) },
                assets: AssetListing.assets(from: try index.assetRows(), entries: byKey), ranges: ranges)
        } catch {
            throw .index(operation: "read", underlying: error)
        }
    }

    /// The bytes cached of `key`.
    public func availableRanges(for key: ResourceKey) -> ByteRangeSet {
        ranges[key] ?? ByteRangeSet()
    }

    /// Totals over every stored resource.
    public var usage: StoreUsage {
        StoreUsage(entries: entries)
    }
}

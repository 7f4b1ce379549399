import Foundation
import MediaCache

/// Listing, removing and counting cached resources, whether the store is open in this process
/// or owned by a running server (``ProxyClient``).
///
/// ```swift
/// func report(_ cache: any CacheMaintenance) async throws {
///     for report in try await cache.entryReports(members: false) { print(report.entry.url, report.entry.cachedBytes) }
///     print(try await cache.statsReport().usage)
/// }
/// try await report(ProxyClient(ServerAnnouncement.read(in: directory)!))   // a running server
/// try await report(try MediaStore.open(at: directory))                     // no server
/// ```
public protocol CacheMaintenance: Sendable {
    /// Every entry with its cached ranges, most recently used first; an HLS asset is one entry,
    /// with its stored resources inside when `members` is set.
    func entryReports(members: Bool) async throws -> [EntryReport]
    /// Removes the entry stored under the key `name`, or else for the URL `name`; for an HLS
    /// asset, every resource of it. Returns the keys removed, `name`'s first.
    func removeEntry(named name: String) async throws -> [ResourceKey]
    /// Pins (keeps out of eviction) or unpins the entry named as for ``removeEntry(named:)``.
    func setPinned(_ pinned: Bool, named name: String) async throws -> ResourceKey
    /// Removes every unpinned entry, or every entry with `includingPinned`.
    func removeEntries(includingPinned: Bool) async throws -> [ResourceKey]
    /// Totals, and what was served when a server answers.
    func statsReport() async throws -> StatsReport
}

extension EntryReport {
    /// The report of `entry` with its `ranges`, without statistics.
    package init(entry: StoreEntry, ranges: ByteRangeSet) {
        self.init(entry: entry, cachedRanges: ranges.ranges, playPath: URL(string: entry.url).flatMap(ProxyURL.path(for:)))
    }
}

extension MediaStore: CacheMaintenance {
    public func entryReports(members: Bool) throws -> [EntryReport] {
        try entryReports(members: members, statistics: [:])
    }

    /// The entry reports with what a running server did for each resource and asset.
    package func entryReports(members: Bool, statistics: [ResourceKey: CacheStatistics]) throws -> [EntryReport] {
        let reports = try entries().map { entry throws(MediaStoreError) in
            EntryReport(entry: entry, ranges: try availableRanges(for: entry.key))
        }
        return EntryGrouping.reports(reports, assets: try assets(), members: members, statistics: statistics)
    }

    public func removeEntry(named name: String) throws -> [ResourceKey] {
        let key = try key(named: name)
        if try assets().contains(where: { $0.key == key }) {
            return [key] + (try removeAsset(key)).filter { $0 != key }
        }
        try remove(key)
        return [key]
    }

    public func setPinned(_ pinned: Bool, named name: String) throws -> ResourceKey {
        let key = try key(named: name)
        try setPinned(pinned, for: key)
        return key
    }

    public func removeEntries(includingPinned: Bool) throws -> [ResourceKey] {
        try removeAll(includingPinned: includingPinned)
    }

    public func statsReport() throws -> StatsReport {
        StatsReport(directory: directory, usage: try usage(), statistics: nil)
    }
}

/// A cache this process may only read: listing and totals work, changes are refused with
/// `readOnly(path:)`.
extension StoreSnapshot: CacheMaintenance {
    public func entryReports(members: Bool) -> [EntryReport] {
        EntryGrouping.reports(
            entries.map { EntryReport(entry: $0, ranges: availableRanges(for: $0.key)) }, assets: assets,
            members: members)
    }

    public func removeEntry(named name: String) throws -> [ResourceKey] {
        throw MediaStoreError.readOnly(path: directory)
    }

    public func setPinned(_ pinned: Bool, named name: String) throws -> ResourceKey {
        throw MediaStoreError.readOnly(path: directory)
    }

    public func removeEntries(includingPinned: Bool) throws -> [ResourceKey] {
        throw MediaStoreError.readOnly(path: directory)
    }

    public func statsReport() -> StatsReport {
        StatsReport(directory: directory, usage: usage, statistics: nil)
    }
}

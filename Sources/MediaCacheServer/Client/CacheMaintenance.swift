import Foundation
import MediaCache

/// Listing, removing and counting cached resources, whether the store is open in this process
/// or owned by a running server (``ProxyClient``).
public protocol CacheMaintenance: Sendable {
    /// Every entry with its cached ranges, most recently used first.
    func entryReports() async throws -> [EntryReport]
    /// Removes the entry stored under the key `name`, or else for the URL `name`.
    func removeEntry(named name: String) async throws -> ResourceKey
    /// Removes every unpinned entry, or every entry with `includingPinned`.
    func removeEntries(includingPinned: Bool) async throws -> [ResourceKey]
    /// Totals, and what was served when a server answers.
    func statsReport() async throws -> StatsReport
}

extension MediaStore: CacheMaintenance {
    public func entryReports() throws -> [EntryReport] {
        try entries().map { entry throws(MediaStoreError) in
            EntryReport(entry: entry, cachedRanges: try availableRanges(for: entry.key).ranges,
                        playPath: URL(string: entry.url).flatMap(ProxyURL.path(for:)))
        }
    }

    public func removeEntry(named name: String) throws -> ResourceKey {
        let key = try key(named: name)
        try remove(key)
        return key
    }

    public func removeEntries(includingPinned: Bool) throws -> [ResourceKey] {
        try removeAll(includingPinned: includingPinned)
    }

    public func statsReport() throws -> StatsReport {
        StatsReport(directory: directory, usage: try usage(), statistics: nil)
    }
}

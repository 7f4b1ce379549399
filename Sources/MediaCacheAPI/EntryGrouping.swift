import Foundation
import MediaCache

/// Lists an HLS asset as one entry: the report of its top playlist carries the asset, and its
/// other resources leave the list (they come back inside the asset when members are asked for).
enum EntryGrouping {
    /// The reports of `entries`, grouped by `assets`, most recently used first.
    ///
    /// - Parameter statistics: What a running server did per resource; empty without one.
    static func reports(
        _ entries: [EntryReport], assets: [StoreAsset], members: Bool,
        statistics: [ResourceKey: CacheStatistics] = [:]
    ) -> [EntryReport] {
        var byKey = Dictionary(entries.map { ($0.entry.key, $0) }, uniquingKeysWith: { first, _ in first })
        for key in byKey.keys { byKey[key]?.statistics = statistics[key] }
        var grouped: [ResourceKey: EntryReport] = [:]
        var belonging = Set<ResourceKey>()
        for asset in assets {
            guard var top = byKey[asset.key] else { continue }
            let stored = asset.memberKeys.compactMap { byKey[$0] }
            let rolled = stored.compactMap(\.statistics).reduce(nil) { ($0 ?? CacheStatistics()) + $1 }
            top.asset = AssetReport(
                cachedBytes: asset.cachedBytes, lastAccess: asset.lastAccess, playlists: asset.playlists,
                memberCount: asset.memberKeys.count, members: members ? stored : nil, statistics: rolled)
            grouped[asset.key] = top
            belonging.formUnion(asset.memberKeys)
        }
        let plain = byKey.values.filter { !belonging.contains($0.entry.key) }
        return (Array(grouped.values) + plain).sorted { lhs, rhs in
            let (left, right) = (lhs.asset?.lastAccess ?? lhs.entry.lastAccess, rhs.asset?.lastAccess ?? rhs.entry.lastAccess)
            return (left, rhs.entry.key) > (right, lhs.entry.key)
        }
    }
}

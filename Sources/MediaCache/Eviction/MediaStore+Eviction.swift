import Foundation

extension MediaStore {
    /// Applies the eviction policy now: removes least-recently-used resources until every
    /// limit holds, skipping pinned resources and resources under a ``StoreLease``.
    ///
    /// Each segment of an HLS asset goes by its own last use, so a half-watched film keeps
    /// what was watched last; its playlists, keys and init sections go by the last use of
    /// the whole asset, so whatever segments remain still play.
    ///
    /// A store within its limits learns so from the index's totals, whatever it holds; one past
    /// a limit reads its resources, least recently used first, only until the limits hold.
    ///
    /// - Returns: The keys removed.
    @discardableResult
    public func evict() throws(MediaStoreError) -> [ResourceKey] {
        guard !configuration.eviction.limits.isEmpty else { return [] }
        let planner = EvictionPlanner(policy: configuration.eviction)
        let now = clock.now()
        let usage = try indexOperation("usage") { try index.usage() }
        guard planner.isExceeded(by: usage, now: now) else { return [] }
        let leased = catalog.withLock { Set($0.leases.keys) }
        let victims = try indexOperation("list") {
            try index.withEvictionCandidates { next in
                try planner.victims(usage: usage, now: now) {
                    guard var candidate = try next() else { return nil }
                    candidate.isProtected = leased.contains(candidate.key)
                    return candidate
                }
            }
        }
        var removed: [ResourceKey] = []
        for key in victims {
            let isLeased = catalog.withLock { $0.leases[key] != nil }
            guard !isLeased else { continue }
            do {
                try remove(key)
                removed.append(key)
            } catch  where error.code == .unknownResource {
                continue
            }
        }
        if !removed.isEmpty {
            configuration.logger.info("evicted", metadata: ["count": "\(removed.count)"])
        }
        return removed
    }
}

import Foundation

extension MediaStore {
    /// Applies the eviction policy now: removes least-recently-used resources until every
    /// limit holds, skipping pinned resources and resources under a ``StoreLease``.
    ///
    /// - Returns: The keys removed.
    @discardableResult
    public func evict() throws(MediaStoreError) -> [ResourceKey] {
        guard !configuration.eviction.limits.isEmpty else { return [] }
        let leased = catalog.withLock { Set($0.leases.keys) }
        let candidates = try entries().map { entry in
            EvictionPlanner.Candidate(key: entry.key, bytes: entry.cachedBytes, lastAccess: entry.lastAccess,
                                      isProtected: entry.isPinned || leased.contains(entry.key))
        }
        let victims = EvictionPlanner(policy: configuration.eviction).victims(among: candidates, now: clock.now())
        var removed: [ResourceKey] = []
        for key in victims {
            let isLeased = catalog.withLock { $0.leases[key] != nil }
            guard !isLeased else { continue }
            do {
                try remove(key)
                removed.append(key)
            } catch .unknownResource {
                continue
            }
        }
        if !removed.isEmpty {
            configuration.logger.info("evicted", metadata: ["count": "\(removed.count)"])
        }
        return removed
    }
}

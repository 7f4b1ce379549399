import Foundation

extension MediaStore {
    /// Applies the eviction policy now: removes least-recently-used resources until every
    /// limit holds, skipping pinned resources and resources under a ``StoreLease``.
    ///
    /// Each segment of an HLS asset goes by its own last use, so a half-watched film keeps
    /// what was watched last; its playlists, keys and init sections go by the last use of
    /// the whole asset, so whatever segments remain still play.
    ///
    /// - Returns: The keys removed.
    @discardableResult
    public func evict() throws(MediaStoreError) -> [ResourceKey] {
        guard !configuration.eviction.limits.isEmpty else { return [] }
        let leased = catalog.withLock { Set($0.leases.keys) }
        var candidates = try entries().map { entry in
            EvictionPlanner.Candidate(key: entry.key, bytes: entry.cachedBytes, lastAccess: entry.lastAccess,
                                      isProtected: entry.isPinned || leased.contains(entry.key))
        }
        let planner = EvictionPlanner(policy: configuration.eviction)
        var victims = planner.victims(among: candidates, now: clock.now())
        // An asset's playlists, keys and init sections are needed as long as any of its
        // segments is cached: they count as used whenever any of its resources was.
        let structural = victims.isEmpty ? [:] : try indexOperation("asset use") { try index.structuralMembersLastUse() }
        if !structural.isEmpty {
            for position in candidates.indices {
                if let use = structural[candidates[position].key], use > candidates[position].lastAccess {
                    candidates[position].lastAccess = use
                }
            }
            victims = planner.victims(among: candidates, now: clock.now())
        }
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

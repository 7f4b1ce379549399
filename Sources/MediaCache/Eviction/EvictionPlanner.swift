import Foundation

/// Chooses which resources to evict; pure, so its rules are tested without a store.
struct EvictionPlanner {
    /// What the planner knows of one stored resource.
    struct Candidate: Equatable {
        var key: ResourceKey
        var bytes: Int64
        var lastAccess: Date
        /// Pinned or being read: counts towards the limits but is never chosen.
        var isProtected: Bool
    }

    var policy: EvictionPolicy

    /// The keys to evict, least recently used first.
    func victims(among candidates: [Candidate], now: Date) -> [ResourceKey] {
        let byAge = candidates.sorted { ($0.lastAccess, $0.key) < ($1.lastAccess, $1.key) }
        var chosen = Set<ResourceKey>()
        var totalBytes = candidates.reduce(0) { $0 + $1.bytes }
        var entryCount = candidates.count
        func evict(_ candidate: Candidate) {
            guard !candidate.isProtected, chosen.insert(candidate.key).inserted else { return }
            totalBytes -= candidate.bytes
            entryCount -= 1
        }
        for limit in policy.limits {
            switch limit {
            case .age(let maxAge):
                let cutoff = now.addingTimeInterval(-maxAge.timeInterval)
                for candidate in byAge where candidate.lastAccess < cutoff { evict(candidate) }
            case .totalBytes(let maxBytes):
                for candidate in byAge where totalBytes > maxBytes { evict(candidate) }
            case .entryCount(let maxCount):
                for candidate in byAge where entryCount > maxCount { evict(candidate) }
            }
        }
        return byAge.map(\.key).filter(chosen.contains)
    }
}

extension Duration {
    /// The duration in seconds as a `TimeInterval`.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

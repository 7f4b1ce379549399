import Foundation

/// Chooses which resources to evict; pure, so its rules are tested without a store.
struct EvictionPlanner {
    /// What the planner knows of one resource it may evict.
    struct Candidate: Equatable {
        var key: ResourceKey
        var bytes: Int64
        var lastAccess: Date
        /// Being read: counts towards the limits but is never chosen.
        var isProtected: Bool
    }

    /// What the whole store holds, pinned resources included: they count towards the limits,
    /// though they are never candidates.
    struct Usage: Equatable {
        var bytes: Int64
        var entries: Int
        /// The least recent access of any resource; `nil` in an empty store.
        var oldestAccess: Date?
    }

    var policy: EvictionPolicy

    /// Whether any limit is exceeded by a store holding `usage`; when none is, nothing is
    /// evicted, and the candidates need not be read.
    func isExceeded(by usage: Usage, now: Date) -> Bool {
        isOverSize(bytes: usage.bytes, entries: usage.entries) || usage.oldestAccess.map { isTooOld($0, now: now) } ?? false
    }

    /// The keys to evict, least recently used first, in a store holding `usage`. `next` gives
    /// the candidates least recently used first; they are read only until one need not go: once
    /// the store is within its size limits, every later candidate is more recent, so no age limit
    /// takes it either.
    func victims(usage: Usage, now: Date, next: () throws -> Candidate?) rethrows -> [ResourceKey] {
        var bytes = usage.bytes
        var entries = usage.entries
        var chosen: [ResourceKey] = []
        while let candidate = try next() {
            guard isTooOld(candidate.lastAccess, now: now) || isOverSize(bytes: bytes, entries: entries) else { break }
            guard !candidate.isProtected else { continue }
            chosen.append(candidate.key)
            bytes -= candidate.bytes
            entries -= 1
        }
        return chosen
    }

    private func isOverSize(bytes: Int64, entries: Int) -> Bool {
        policy.limits.contains { limit in
            limit.maximumBytes.map { bytes > $0 } ?? false || limit.maximumCount.map { entries > $0 } ?? false
        }
    }

    private func isTooOld(_ lastAccess: Date, now: Date) -> Bool {
        policy.limits.contains { limit in
            guard let maxAge = limit.maximumAge else { return false }
            return lastAccess < now.addingTimeInterval(-maxAge.timeInterval)
        }
    }
}

extension Duration {
    /// The duration in seconds as a `TimeInterval`.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

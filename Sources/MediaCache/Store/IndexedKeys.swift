/// The keys of the resources the index holds, as in-memory digests, so that a key the index
/// does not hold is known without asking it.
///
/// A proxy's miss looks its new key up before the resource exists and again as it creates
/// it; each of those index reads cost a quarter of a millisecond on the way to the first
/// byte. Only the store that owns the directory adds or removes resources, so the set is
/// exact while it is open.
///
/// A digest stands for every key with that hash: ``mayContain(_:)`` is `false` only for a key
/// the index certainly does not hold, and a collision costs one index lookup. Counting the
/// keys per digest keeps removal exact. Memory is a dictionary entry per resource, not its key.
struct IndexedKeys {
    private var counts: [Int: Int32] = [:]

    init(_ keys: some Sequence<ResourceKey>) {
        for key in keys { insert(key) }
    }

    /// Whether the index may hold `key`.
    func mayContain(_ key: ResourceKey) -> Bool {
        counts[key.hashValue] != nil
    }

    /// The index now holds `key`.
    mutating func insert(_ key: ResourceKey) {
        counts[key.hashValue, default: 0] += 1
    }

    /// The index no longer holds `key`.
    mutating func remove(_ key: ResourceKey) {
        let digest = key.hashValue
        guard let count = counts[digest] else { return }
        counts[digest] = count > 1 ? count - 1 : nil
    }
}

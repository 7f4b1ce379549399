/// One bound the cache is kept within.
public enum EvictionLimit: Hashable, Sendable, Codable {
    /// Evict least-recently-used resources while cached bytes exceed this many.
    case totalBytes(Int64)
    /// Evict resources not accessed for longer than this.
    case age(Duration)
    /// Evict least-recently-used resources while more than this many are stored.
    case entryCount(Int)
}

/// The limits the store enforces after commits and when it opens.
///
/// Pinned resources (offline downloads) and resources with an active reader are never
/// evicted; they still count towards the limits.
///
/// ```swift
/// var configuration = MediaStore.Configuration()
/// configuration.eviction = EvictionPolicy([.totalBytes(500 << 20), .age(.seconds(7 * 86_400))])
/// ```
public struct EvictionPolicy: Hashable, Sendable {
    /// The limits; an empty list never evicts.
    public var limits: [EvictionLimit]

    /// Creates a policy from its limits.
    public init(_ limits: [EvictionLimit]) {
        self.limits = limits
    }

    /// Never evicts.
    public static let unlimited = EvictionPolicy([])

    /// One GiB of cached bytes, no age or entry limit.
    public static let `default` = EvictionPolicy([.totalBytes(1 << 30)])
}

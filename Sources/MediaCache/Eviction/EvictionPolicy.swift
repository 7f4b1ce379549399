/// One bound the cache is kept within: a size, an age or a number of resources.
///
/// ```swift
/// EvictionPolicy([.totalBytes(500 << 20), .age(.seconds(7 * 86_400))])
/// ```
public struct EvictionLimit: Hashable, Sendable, Codable {
    /// The most bytes cached, for a limit made by ``totalBytes(_:)``.
    public let maximumBytes: Int64?
    /// The longest a resource stays without being accessed, for a limit made by ``age(_:)``.
    public let maximumAge: Duration?
    /// The most resources stored, for a limit made by ``entryCount(_:)``.
    public let maximumCount: Int?

    private init(maximumBytes: Int64? = nil, maximumAge: Duration? = nil, maximumCount: Int? = nil) {
        self.maximumBytes = maximumBytes
        self.maximumAge = maximumAge
        self.maximumCount = maximumCount
    }

    /// Evict least-recently-used resources while cached bytes exceed this many.
    public static func totalBytes(_ bytes: Int64) -> Self { Self(maximumBytes: bytes) }
    /// Evict resources not accessed for longer than this.
    public static func age(_ age: Duration) -> Self { Self(maximumAge: age) }
    /// Evict least-recently-used resources while more than this many are stored.
    public static func entryCount(_ count: Int) -> Self { Self(maximumCount: count) }
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

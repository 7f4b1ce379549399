/// Protects a resource from eviction while it is being read or fetched.
///
/// End it with ``end()``; a lease that is dropped ends itself.
///
/// ```swift
/// let lease = store.beginUse(of: key)
/// defer { lease.end() }
/// let bytes = try store.read(ByteRange(0, 4_096), from: key)   // not evicted meanwhile
/// ```
public final class StoreLease: Sendable {
    private let release: Locked<(@Sendable () -> Void)?>

    init(release: @escaping @Sendable () -> Void) {
        self.release = Locked(release)
    }

    /// Ends the lease; later calls do nothing.
    public func end() {
        let action = release.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        end()
    }
}

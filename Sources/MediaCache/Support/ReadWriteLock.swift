#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A readers-writer lock: many shared holders or one exclusive holder.
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked: the pthread lock is the synchronisation itself; it lives at a stable address.
    private let handle: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        handle = .allocate(capacity: 1)
        handle.initialize(to: pthread_rwlock_t())
        precondition(pthread_rwlock_init(handle, nil) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(handle)
        handle.deallocate()
    }

    func withSharedLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_rdlock(handle)
        defer { pthread_rwlock_unlock(handle) }
        return try body()
    }

    func withExclusiveLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(handle)
        defer { pthread_rwlock_unlock(handle) }
        return try body()
    }
}

import Foundation

/// A value guarded by a mutex, for synchronous hot paths where an actor hop would cost more
/// than the work it protects. It is `Sendable` when its value is, as `NIOLockedValueBox` is:
/// the lock keeps accesses apart, not the value from being shared.
package final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// @unchecked: every access to `value` happens inside `lock`.
extension Locked: @unchecked Sendable where Value: Sendable {}

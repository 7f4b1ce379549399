import Foundation

/// The source of time for MediaCache components: wall-clock time for what is recorded (last
/// access, ages) and waiting for what is scheduled (batched commits).
///
/// ``SystemClock`` is the real clock; `MediaCacheTesting` has a manual one for tests.
public protocol MediaCacheClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's wall clock and a continuous clock for waiting.
public struct SystemClock: MediaCacheClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}

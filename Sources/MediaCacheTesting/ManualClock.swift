import Foundation
import MediaCache

/// A clock that moves only when a test advances it, so time-driven behaviour is tested
/// without sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// configuration.clock = clock
/// await clock.waitForSleepers(1)       // the store's flusher is waiting
/// clock.advance(by: .seconds(1))       // it wakes and commits
/// await clock.waitForSleepers(1)       // and is waiting again: the commit is done
/// ```
public final class ManualClock: MediaCacheClock {
    private struct Sleeper {
        var id: UInt64
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
    }

    private let state: Locked<State>

    /// Creates a clock that reads `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Locked(State(now: start))
    }

    public func now() -> Date {
        state.withLock(\.now)
    }

    public func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.sleepers.append(
                        Sleeper(
                            id: id, deadline: state.now.addingTimeInterval(duration.timeInterval),
                            continuation: continuation))
                    return Self.takeSatisfiedWaiters(&state)
                }
                ready.forEach { $0.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(duration.timeInterval)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return Self.takeSatisfiedWaiters(&state)
            }
            ready.forEach { $0.resume() }
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let sleeping = state.sleepers.count
        let ready = state.waiters.filter { $0.count <= sleeping }.map(\.continuation)
        state.waiters.removeAll { $0.count <= sleeping }
        return ready
    }
}

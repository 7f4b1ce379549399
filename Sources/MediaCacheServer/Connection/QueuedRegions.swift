import NIOConcurrencyHelpers

/// Bounds the file regions a connection has queued but not yet written, so that a response
/// to a client that takes nothing holds two spans of the data file, not a descriptor for
/// every span of the resource. The response's task enters before it queues a region and
/// waits while two are queued; ``FileRegionRelease`` leaves once a region is written or
/// failed. A closed connection lets every waiter go.
final class QueuedRegions: Sendable {
    /// The most regions queued at once: the one being sent and the next.
    static let limit = 2

    private struct State {
        var queued = 0
        var isClosed = false
        var waiter: CheckedContinuation<Bool, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Waits until a region may be queued and counts it; `false` when the connection closed
    /// or the task was cancelled (a server shutting down cancels its connections' tasks).
    func enter() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admitted: Bool? = state.withLockedValue { state in
                    if state.isClosed { return false }
                    guard state.queued >= Self.limit else {
                        state.queued += 1
                        return true
                    }
                    state.waiter = continuation
                    return nil
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            close()
        }
    }

    /// A queued region was written or failed.
    func leave() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            state.queued -= 1
            guard let waiter = state.waiter, state.queued < Self.limit else { return nil }
            state.queued += 1
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// The connection closed, or its task was cancelled: a waiting response goes on to find
    /// its writes failing.
    func close() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            state.isClosed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }
}

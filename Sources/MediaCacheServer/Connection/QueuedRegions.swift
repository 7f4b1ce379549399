import MediaCache
import NIOConcurrencyHelpers
import NIOCore

/// Bounds the file regions a connection has queued but not yet written, so that a response
/// to a client that takes nothing holds two spans of the data file, not a descriptor for
/// every span of the resource, and carries to ``FileRegionSender`` whom each region tells of
/// the bytes it sent.
///
/// The response's task enters before it queues a region and waits while two are queued;
/// ``FileRegionSender`` leaves once a region is written or failed. A closed connection lets
/// every waiter go.
final class QueuedRegions: Sendable {
    /// The most regions queued at once: the one being sent and the next.
    static let limit = 2

    /// Told of each run of a region's bytes once it is written.
    typealias Report = @Sendable (ByteRange) -> Void

    private struct State {
        var queued = 0
        var isClosed = false
        var waiter: CheckedContinuation<Bool, Never>?
        var drainWaiter: CheckedContinuation<Bool, Never>?
        var reports: [ObjectIdentifier: Report] = [:]

        /// Counts a region when one may be queued: `true` then, `false` once closed, `nil`
        /// while ``limit`` are queued.
        mutating func enter() -> Bool? {
            if isClosed { return false }
            guard queued < QueuedRegions.limit else { return nil }
            queued += 1
            return true
        }
    }

    private let state = NIOLockedValueBox(State())

    /// Waits until a region may be queued and counts it; `false` when the connection closed
    /// or the task was cancelled (a server shutting down cancels its connections' tasks).
    func enter() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admitted: Bool? = state.withLockedValue { state in
                    guard let admitted = state.enter() else {
                        state.waiter = continuation
                        return nil
                    }
                    return admitted
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            close()
        }
    }

    /// Counts a region about to be queued without waiting: `false` while ``limit`` are queued
    /// or once the connection closed.
    func tryEnter() -> Bool {
        state.withLockedValue { $0.enter() } ?? false
    }

    /// Notes that the region about to be queued for `file` tells `report` of what it sends.
    func expect(_ file: NIOFileHandle, reporting report: @escaping Report) {
        state.withLockedValue { $0.reports[ObjectIdentifier(file)] = report }
    }

    /// The report noted for `file`'s region, which only the first caller gets.
    func takeReport(for file: NIOFileHandle) -> Report? {
        state.withLockedValue { $0.reports.removeValue(forKey: ObjectIdentifier(file)) }
    }

    /// A queued region was written or failed.
    func leave() {
        let (waiter, drainWaiter) = state.withLockedValue {
            state -> (CheckedContinuation<Bool, Never>?, CheckedContinuation<Bool, Never>?) in
            state.queued -= 1
            var drainWaiter: CheckedContinuation<Bool, Never>?
            if state.queued == 0 {
                drainWaiter = state.drainWaiter
                state.drainWaiter = nil
            }
            guard let waiter = state.waiter, state.queued < Self.limit else { return (nil, drainWaiter) }
            state.queued += 1
            state.waiter = nil
            return (waiter, drainWaiter)
        }
        waiter?.resume(returning: true)
        drainWaiter?.resume(returning: true)
    }

    /// Waits until every queued region is written: `true` then, `false` when the connection
    /// closed (or the task was cancelled) first, and some may not have been.
    func drained() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let result: Bool? = state.withLockedValue { state in
                    guard state.queued > 0 else { return true }
                    if state.isClosed { return false }
                    state.drainWaiter = continuation
                    return nil
                }
                if let result { continuation.resume(returning: result) }
            }
        } onCancel: {
            close()
        }
    }

    /// The connection closed, or its task was cancelled: a waiting response goes on to find
    /// its writes failing.
    func close() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>?] in
            state.isClosed = true
            defer {
                state.waiter = nil
                state.drainWaiter = nil
            }
            return [state.waiter, state.drainWaiter]
        }
        for waiter in waiters { waiter?.resume(returning: false) }
    }
}

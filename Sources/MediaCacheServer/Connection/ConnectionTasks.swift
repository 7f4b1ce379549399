import MediaCacheEventLoops
import NIOConcurrencyHelpers
import NIOCore

/// The tasks answering the proxy's requests (``RequestLoop``), one per request being answered:
/// the listener cancels them when the server is stopped at once, and waits for them before it
/// returns.
final class ConnectionTasks: Sendable {
    private struct State {
        var running: [Int: Task<Void, Never>] = [:]
        var nextID = 0
        var isCancelled = false
    }

    private let state = NIOLockedValueBox(State())

    /// Starts `operation` in a task of its own that runs on `eventLoop` where the platform has
    /// task executors (``EventLoopTaskExecutor``); it is cancelled at once when ``cancelAll()``
    /// came first.
    func start(on eventLoop: any EventLoop, _ operation: @escaping @Sendable () async -> Void) {
        // The task is made and recorded under the lock: a task never runs where it is made, so
        // its removal at its end, which takes the lock, always finds it recorded.
        state.withLockedValue { state in
            state.nextID += 1
            let id = state.nextID
            let startsCancelled = state.isCancelled
            let body: @Sendable () async -> Void = { [self] in
                // Cancelled before the operation runs: the event loop may run a new task before
                // the thread that made it could cancel it.
                if startsCancelled { withUnsafeCurrentTask { $0?.cancel() } }
                await operation()
                self.state.withLockedValue { _ = $0.running.removeValue(forKey: id) }
            }
            let task: Task<Void, Never>
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *) {
                task = Task(executorPreference: EventLoopTaskExecutor(eventLoop), operation: body)
            } else {
                task = Task(operation: body)
            }
            state.running[id] = task
        }
    }

    /// Cancels every task, and every task started from now on.
    func cancelAll() {
        let running = state.withLockedValue { state in
            state.isCancelled = true
            return Array(state.running.values)
        }
        for task in running { task.cancel() }
    }

    /// Returns once every task started has ended, those started meanwhile included.
    func waitForAll() async {
        while let task = state.withLockedValue({ $0.running.values.first }) {
            await task.value
        }
    }
}

import NIOConcurrencyHelpers
import NIOCore

/// The tasks serving the proxy's connections (``ProxyChannel``), one per connection, started as
/// each connection is set up: the listener cancels them when the server is stopped at once, and
/// waits for them before it returns.
final class ConnectionTasks: Sendable {
    private struct State {
        var running: [Int: Task<Void, Never>] = [:]
        /// Tasks that ended before they were recorded in ``running``.
        var ended: Set<Int> = []
        var nextID = 0
        var isCancelled = false
    }

    private let state = NIOLockedValueBox(State())

    /// Starts `operation` in a task of its own that runs on `eventLoop` where the platform has
    /// task executors (``EventLoopTaskExecutor``); it is cancelled at once when ``cancelAll()``
    /// came first.
    func start(on eventLoop: any EventLoop, _ operation: @escaping @Sendable () async -> Void) {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        let body: @Sendable () async -> Void = { [self] in
            await operation()
            state.withLockedValue { state in
                if state.running.removeValue(forKey: id) == nil { state.ended.insert(id) }
            }
        }
        let task: Task<Void, Never>
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *) {
            task = Task(executorPreference: EventLoopTaskExecutor(eventLoop), operation: body)
        } else {
            task = Task(operation: body)
        }
        let isCancelled = state.withLockedValue { state in
            if state.ended.remove(id) == nil { state.running[id] = task }
            return state.isCancelled
        }
        if isCancelled { task.cancel() }
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

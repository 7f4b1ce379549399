import ServiceLifecycle
import UnixSignals

/// Runs a service group that stops in two steps: the first SIGINT or SIGTERM shuts it down
/// gracefully (bounded by the group's `maximumGracefulShutdownDuration`), a second one cancels
/// it at once.
enum ShutdownSignals {
    private enum Event {
        /// The group returned: the server stopped.
        case groupEnded
        /// A second signal: stop at once.
        case forced
        /// The signal listener ended without a second signal (it was cancelled).
        case listenerEnded
    }

    /// Runs `group` until it ends, stopping it on signals when `handlingSignals`; cancelling the
    /// calling task cancels the group.
    static func run(_ group: ServiceGroup, handlingSignals: Bool) async throws {
        guard handlingSignals else {
            try await group.run()
            return
        }
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        try await withThrowingTaskGroup(of: Event.self) { tasks in
            tasks.addTask {
                do {
                    try await group.run()
                } catch is CancellationError {
                    // Stopped by a second signal.
                }
                return .groupEnded
            }
            tasks.addTask {
                var received = 0
                for await _ in signals {
                    received += 1
                    if received == 1 {
                        await group.triggerGracefulShutdown()
                    } else {
                        return .forced
                    }
                }
                return .listenerEnded
            }
            while let event = try await tasks.next() {
                switch event {
                case .groupEnded, .forced:
                    // The server stopped, so the listener is not needed, or a second signal
                    // asked to stop at once: either way every task ends.
                    tasks.cancelAll()
                case .listenerEnded:
                    continue
                }
            }
        }
    }
}

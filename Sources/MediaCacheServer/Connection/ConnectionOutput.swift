import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The response side of one proxy connection, as a request's task sees it: writes response
/// parts to the channel, waiting first while the client is behind (the channel is not
/// writable), and fails once the connection has closed.
///
/// The task runs on the channel's event loop where the platform has task executors
/// (``ConnectionTasks``), so a write goes down the pipeline at once, with no hand-over; elsewhere
/// NIO carries it to the loop, in order. ``RequestLoop`` reports the channel's writability and
/// its closing.
final class ConnectionOutput: Sendable {
    private struct State {
        var isWritable = true
        var isClosed = false
        /// Whether a request's task was cancelled (the server is stopping at once): no write
        /// waits for the client any more.
        var isCancelled = false
        var waiter: CheckedContinuation<Void, any Error>?

        mutating func takeWaiter() -> CheckedContinuation<Void, any Error>? {
            defer { waiter = nil }
            return waiter
        }
    }

    let channel: any Channel
    private let state = NIOLockedValueBox(State())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Writes `parts` and flushes them, once the channel is writable.
    ///
    /// - Throws: `ChannelError.ioOnClosedChannel` once the connection has closed;
    ///   `CancellationError` when it would wait and a request's task was cancelled.
    func write(_ parts: HTTPServerResponsePart...) async throws {
        try await waitUntilWritable()
        for part in parts { channel.write(part, promise: nil) }
        channel.flush()
    }

    /// Closes the connection's output once everything written has been sent; the client closes
    /// its side when it has read it.
    func finish() {
        channel.close(mode: .output, promise: nil)
    }

    private func waitUntilWritable() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = state.withLockedValue { state in
                    if state.isClosed { return .failure(ChannelError.ioOnClosedChannel) }
                    if state.isWritable { return .success(()) }
                    if state.isCancelled { return .failure(CancellationError()) }
                    state.waiter = waiter
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state in
                state.isCancelled = true
                return state.takeWaiter()
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// The channel's writability changed; a waiting write goes on once it is writable.
    func writabilityChanged(isWritable: Bool) {
        let waiter = state.withLockedValue { state in
            state.isWritable = isWritable
            return isWritable ? state.takeWaiter() : nil
        }
        waiter?.resume()
    }

    /// The connection closed: a waiting write fails, as does every later one.
    func closed() {
        let waiter = state.withLockedValue { state in
            state.isClosed = true
            return state.takeWaiter()
        }
        waiter?.resume(throwing: ChannelError.ioOnClosedChannel)
    }
}

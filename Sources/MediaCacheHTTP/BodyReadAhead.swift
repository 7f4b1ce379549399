import AsyncHTTPClient
import Foundation
import MediaCache
import NIOCore
import NIOFoundationCompat

/// A response body read ahead of its consumer: a task of its own moves the body's buffers into
/// a bounded queue as they arrive, and each ``next()`` takes all that has arrived as one chunk.
///
/// AsyncHTTPClient reads a body's next buffer from the socket only once the previous one has
/// been taken. A fetch takes a buffer, writes it to the store and hands it to its readers
/// before it takes the next, so without this the socket waited for all of that, chunk by
/// chunk. Read ahead, the origin's bytes keep moving meanwhile, and what arrived meanwhile is
/// written and handed over once. At most ``limit`` bytes wait, plus the buffer that crossed it.
///
/// ```swift
/// let body = BodyReadAhead(response.body, limit: 1 << 20)
/// while let chunk = try await body.next() { ... }
/// ```
///
/// Dropping it, or cancelling the task waiting in ``next()``, stops the reading (and with it
/// the transfer).
final class BodyReadAhead: Sendable {
    /// The most bytes read ahead.
    let limit: Int
    private let queue: Queue
    private let reader: Task<Void, Never>

    init(_ body: HTTPClientResponse.Body, limit: Int) {
        let queue = Queue(limit: limit)
        reader = Task {
            do {
                for try await buffer in body {
                    guard await queue.put(buffer) else { throw CancellationError() }
                }
                queue.finish(.success(()))
            } catch {
                queue.finish(.failure(error))
            }
        }
        self.limit = limit
        self.queue = queue
    }

    deinit {
        reader.cancel()
    }

    /// Everything read since the last call, as one chunk; waits for the next buffer when none
    /// has arrived. `nil` at the body's end.
    ///
    /// - Throws: the transfer's failure, or `CancellationError` when the calling task is
    ///   cancelled.
    func next() async throws -> Data? {
        while true {
            switch queue.take() {
            case .chunks(let buffers):
                return Self.data(buffers)
            case .end(let result):
                try result.get()
                return nil
            case .empty:
                await withTaskCancellationHandler {
                    await queue.waitForBuffers()
                } onCancel: {
                    reader.cancel()
                }
                try Task.checkCancellation()
            }
        }
    }

    /// `buffers` as one `Data`; a single large buffer keeps its storage, without a copy.
    private static func data(_ buffers: [ByteBuffer]) -> Data {
        if buffers.count == 1 { return Data(buffer: buffers[0], byteTransferStrategy: .automatic) }
        var data = Data(capacity: buffers.reduce(0) { $0 + $1.readableBytes })
        for buffer in buffers { data.append(contentsOf: buffer.readableBytesView) }
        return data
    }
}

extension BodyReadAhead {
    /// The buffers read and not yet taken, and the two sides' waits.
    private final class Queue: Sendable {
        enum Taken {
            case chunks([ByteBuffer])
            case end(Result<Void, any Error>)
            case empty
        }

        private struct State {
            var buffers: [ByteBuffer] = []
            var count = 0
            var end: Result<Void, any Error>?
            /// The reader, waiting for room.
            var reader: CheckedContinuation<Bool, Never>?
            /// The consumer, waiting for buffers.
            var consumer: CheckedContinuation<Void, Never>?
            var isCancelled = false
        }

        private let limit: Int
        private let state = Locked(State())

        init(limit: Int) {
            self.limit = limit
        }

        /// Queues `buffer`; once the queue holds `limit` bytes, returns when the consumer has
        /// taken them. `false` when the reader was cancelled meanwhile.
        func put(_ buffer: ByteBuffer) async -> Bool {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (reader: CheckedContinuation<Bool, Never>) in
                    let (consumer, resumes) = state.withLock { state in
                        state.buffers.append(buffer)
                        state.count += buffer.readableBytes
                        let waits = state.count >= limit && !state.isCancelled
                        if waits { state.reader = reader }
                        defer { state.consumer = nil }
                        return (state.consumer, !waits)
                    }
                    consumer?.resume()
                    if resumes { reader.resume(returning: !Task.isCancelled) }
                }
            } onCancel: {
                let reader = state.withLock { state in
                    state.isCancelled = true
                    defer { state.reader = nil }
                    return state.reader
                }
                reader?.resume(returning: false)
            }
        }

        /// Ends the body: after the buffers queued, ``take()`` gives `result`.
        func finish(_ result: Result<Void, any Error>) {
            let consumer = state.withLock { state in
                state.end = result
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume()
        }

        /// The queued buffers, or the end once they are all taken; lets a waiting reader on.
        func take() -> Taken {
            let (taken, reader): (Taken, CheckedContinuation<Bool, Never>?) = state.withLock { state in
                if !state.buffers.isEmpty {
                    defer {
                        state.buffers = []
                        state.count = 0
                        state.reader = nil
                    }
                    return (.chunks(state.buffers), state.reader)
                }
                return (state.end.map { .end($0) } ?? .empty, nil)
            }
            reader?.resume(returning: true)
            return taken
        }

        /// Returns once buffers or the end have arrived.
        func waitForBuffers() async {
            await withCheckedContinuation { (consumer: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if !state.buffers.isEmpty || state.end != nil { return true }
                    state.consumer = consumer
                    return false
                }
                if ready { consumer.resume() }
            }
        }
    }
}

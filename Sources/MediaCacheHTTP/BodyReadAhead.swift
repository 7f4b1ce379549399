import AsyncHTTPClient
import Foundation
import MediaCache
import NIOCore

/// A response body read ahead of its consumer: a task of its own moves the body's bytes into a
/// bounded queue as they arrive, and each ``next()`` takes all that has arrived as one chunk.
///
/// AsyncHTTPClient reads a body's next buffer from the socket only once the previous one has
/// been taken. A fetch takes a buffer, writes it to the store and hands it to its readers
/// before it takes the next, so without this the socket waited for all of that, chunk by
/// chunk. Read ahead, the origin's bytes keep moving meanwhile, and what arrived meanwhile is
/// written and handed over once. At most `limit` bytes wait, plus the buffer that crossed it.
///
/// ```swift
/// let body = BodyReadAhead(response.body, limit: 1 << 20)
/// while let chunk = try await body.next() { ... }
/// ```
///
/// Dropping it, or cancelling the task waiting in ``next()``, stops the reading (and with it
/// the transfer).
final class BodyReadAhead: Sendable {
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
            case .bytes(let bytes):
                return bytes
            case .end(let result):
                try result.get()
                return nil
            case .empty:
                await withTaskCancellationHandler {
                    await queue.waitForBytes()
                } onCancel: {
                    reader.cancel()
                }
                try Task.checkCancellation()
            }
        }
    }
}

extension BodyReadAhead {
    /// The bytes read and not yet taken, and the two sides' waits.
    ///
    /// A buffer's bytes are copied in as it arrives, by the reading task, which lets go of the
    /// buffer before it asks for the next: SwiftNIO reuses a receive buffer once nobody else
    /// holds it, so no buffer is kept past the copy (see ``copyBytesOfEventLoopBuffer(_:to:)``).
    private final class Queue: Sendable {
        enum Taken {
            case bytes(Data)
            case end(Result<Void, any Error>)
            case empty
        }

        private struct State {
            var bytes = Data()
            var end: Result<Void, any Error>?
            /// The reader, waiting for room.
            var reader: CheckedContinuation<Bool, Never>?
            /// The consumer, waiting for bytes.
            var consumer: CheckedContinuation<Void, Never>?
            var isCancelled = false
        }

        private let limit: Int
        private let state = Locked(State())

        init(limit: Int) {
            self.limit = limit
        }

        /// Queues `buffer`'s bytes; once the queue holds `limit` bytes, returns when the
        /// consumer has taken them. `false` when the reader was cancelled meanwhile.
        func put(_ buffer: ByteBuffer) async -> Bool {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (reader: CheckedContinuation<Bool, Never>) in
                    let (consumer, resumes) = state.withLock { state in
                        copyBytesOfEventLoopBuffer(buffer, to: &state.bytes)
                        let waits = state.bytes.count >= limit && !state.isCancelled
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

        /// Ends the body: after the bytes queued, ``take()`` gives `result`.
        func finish(_ result: Result<Void, any Error>) {
            let consumer = state.withLock { state in
                state.end = result
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume()
        }

        /// The queued bytes, or the end once they are all taken; lets a waiting reader on.
        func take() -> Taken {
            let (taken, reader): (Taken, CheckedContinuation<Bool, Never>?) = state.withLock { state in
                if !state.bytes.isEmpty {
                    defer {
                        state.bytes = Data()
                        state.reader = nil
                    }
                    return (.bytes(state.bytes), state.reader)
                }
                return (state.end.map { .end($0) } ?? .empty, nil)
            }
            reader?.resume(returning: true)
            return taken
        }

        /// Returns once bytes or the end have arrived.
        func waitForBytes() async {
            await withCheckedContinuation { (consumer: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if !state.bytes.isEmpty || state.end != nil { return true }
                    state.consumer = consumer
                    return false
                }
                if ready { consumer.resume() }
            }
        }
    }
}

/// Appends `buffer`'s readable bytes to `bytes`, on a thread other than the event loop that
/// read them.
///
/// The one place a receive buffer of SwiftNIO's is read off its event loop. Once the reading
/// task lets go of it, the event loop writes into the same storage again (its receive-buffer
/// pool reuses storage it finds uniquely referenced). The release and that uniqueness check are
/// the Swift runtime's atomic reference counts, which order the two, but which ThreadSanitizer
/// does not see: it reports this read and NIO's next write as a race. `scripts/tsan-suppressions.txt`
/// suppresses reports with this function's frame, and only those.
///
/// The buffer is read inside `withUnsafeReadableBytes`, which this function calls itself:
/// ThreadSanitizer names a frame by the call it made into instrumented code, so the frame
/// the suppression matches is always in the report.
@inline(never)
private func copyBytesOfEventLoopBuffer(_ buffer: ByteBuffer, to bytes: inout Data) {
    buffer.withUnsafeReadableBytes { bytes.append(contentsOf: $0) }
}

import AsyncHTTPClient
import Foundation
import MediaCache
import NIOCore
import NIOHTTP1

/// One request to the origin: its response head, then its body read ahead of the fetch that
/// takes it.
///
/// The transfer is AsyncHTTPClient's response delegate, which runs on the given event loop.
/// AsyncHTTPClient prefers a connection on that loop, and makes its new ones there, so that
/// the delegate runs where the response is read (``HTTPOrigin`` gives all requests to one host
/// the same loop). The head and each body buffer then reach the waiting fetch with one
/// hand-over between threads, the one that wakes it. AsyncHTTPClient's `async` `execute` costs
/// more per request: a task that registers its cancellation, a deadline scheduled on the loop,
/// and a task that iterates the body (BENCHMARKS.md, "A miss's request made where its answer is
/// read").
///
/// The body is read ahead: AsyncHTTPClient reads a body's next buffer from the socket only once
/// the previous buffer's future has completed. The transfer completes that future at once
/// while fewer than `limit` bytes wait, so the origin's bytes keep moving while the fetch
/// writes what it took to the store. At most `limit` bytes wait, plus the buffer that crossed
/// it.
///
/// The buffers one turn of the loop read (NIO reads up to four per turn) are copied, at the
/// end of that turn and on that loop, into one `Data` of exactly their size, and a waiting
/// fetch is woken once for all of them. Each ``next()`` takes what was gathered since the last:
/// one turn's chunk while the fetch keeps up, all of them joined when it fell behind. Appending
/// each buffer to a growing `Data` instead copied the bytes again as it grew, and each larger
/// allocation touched fresh pages: cold fetches cost 7–10 % more CPU and were 8–15 % slower
/// (BENCHMARKS.md, "One copy of each body buffer").
///
/// ```swift
/// let transfer = OriginTransfer(request, on: client, eventLoop: client.eventLoopGroup.any(), limit: 512 << 10)
/// let head = try await transfer.head()
/// while let chunk = try await transfer.next() { ... }
/// ```
///
/// Dropping the transfer before its body ended, or cancelling the task waiting in ``head()`` or
/// ``next()``, stops the request, a redirected one included.
final class OriginTransfer: Sendable {
    /// The final response's head, after any redirects, and the URL that answered it.
    struct Head: Sendable {
        let status: HTTPResponseStatus
        let headers: HTTPHeaders
        let url: URL
    }

    private let delegate: Delegate

    /// Starts `request` on `client`, with the delegate on `eventLoop`.
    init(_ request: HTTPClient.Request, on client: HTTPClient, eventLoop: any EventLoop, limit: Int) {
        delegate = Delegate(url: request.url, limit: limit)
        delegate.started(client.execute(request: request, delegate: delegate, eventLoop: .delegate(on: eventLoop)))
    }

    deinit {
        delegate.cancel()
    }

    /// The final response's head.
    ///
    /// - Throws: the request's failure; `HTTPClientError.cancelled` when the calling task is
    ///   cancelled.
    func head() async throws -> Head {
        try await withTaskCancellationHandler {
            try await delegate.head()
        } onCancel: {
            delegate.cancel()
        }
    }

    /// Everything the body brought since the last call, as one chunk; waits for the next
    /// turn's buffers when none have arrived. `nil` at the body's end.
    ///
    /// - Throws: the transfer's failure, or `CancellationError` when the calling task is
    ///   cancelled.
    func next() async throws -> Data? {
        while true {
            switch delegate.take() {
            case .bytes(let chunks) where chunks.count == 1:
                return chunks[0]
            case .bytes(let chunks):
                // A fetch that fell behind takes what arrived meanwhile as one chunk: one
                // write to the store for it all.
                var joined = Data(capacity: chunks.reduce(0) { $0 + $1.count })
                for chunk in chunks { joined.append(chunk) }
                return joined
            case .end(let result):
                try result.get()
                return nil
            case .empty:
                await withTaskCancellationHandler {
                    await delegate.waitForBytes()
                } onCancel: {
                    delegate.cancel()
                }
                try Task.checkCancellation()
            }
        }
    }
}

extension OriginTransfer {
    /// AsyncHTTPClient's side of the transfer, and the waits of the fetch's side.
    private final class Delegate: HTTPClientResponseDelegate, Sendable {
        typealias Response = Void

        enum Taken {
            /// The chunks gathered since the last take, oldest first.
            case bytes([Data])
            case end(Result<Void, any Error>)
            case empty
        }

        private struct State {
            /// The request's task; a redirect's, once it is answered.
            var task: HTTPClient.Task<Void>?
            /// The last URL asked.
            var url: URL
            var head: Result<Head, any Error>?
            var headWaiter: CheckedContinuation<Head, any Error>?
            /// The buffers this turn of the loop read, not yet gathered.
            var buffers: [ByteBuffer] = []
            /// The gathered chunks, oldest first.
            var chunks: [Data] = []
            /// The bytes of both.
            var waiting = 0
            /// How the transfer ended: finished, failed or cancelled. A request that reports after
            /// the end (a redirect answered after a cancel) is cancelled.
            var end: Result<Void, any Error>?
            /// AsyncHTTPClient, waiting for room before it reads on.
            var producer: EventLoopPromise<Void>?
            /// The fetch, waiting for bytes.
            var consumer: CheckedContinuation<Void, Never>?
            /// Whether the loop gathers the buffers of its current turn at its end.
            var isGatherScheduled = false
        }

        private let limit: Int
        private let state: Locked<State>

        init(url: URL, limit: Int) {
            self.limit = limit
            state = Locked(State(url: url))
        }

        /// Records the request's task; cancels it when the transfer was cancelled meanwhile.
        func started(_ task: HTTPClient.Task<Void>) {
            let hasEnded = state.withLock { state in
                if state.task == nil { state.task = task }
                return state.end != nil
            }
            if hasEnded { task.cancel() }
        }

        /// Stops the request unless it has ended, and ends both waits at once with
        /// `HTTPClientError.cancelled`. A redirect not yet answered stops once its head comes.
        func cancel() {
            guard finish(.failure(HTTPClientError.cancelled)) else { return }
            // Read after the end is set: a redirect's task recorded later sees the end and
            // cancels itself.
            state.withLock { $0.task }?.cancel()
        }

        func head() async throws -> Head {
            try await withCheckedThrowingContinuation { waiter in
                let head = state.withLock { state in
                    if state.head == nil { state.headWaiter = waiter }
                    return state.head
                }
                if let head { waiter.resume(with: head) }
            }
        }

        /// Every gathered chunk, as one, or the end once every byte is taken; lets AsyncHTTPClient
        /// read on.
        func take() -> Taken {
            let (taken, producer) = state.withLock { state -> (Taken, EventLoopPromise<Void>?) in
                guard state.chunks.isEmpty else {
                    let chunks = state.chunks
                    state.chunks = []
                    state.waiting -= chunks.reduce(0) { $0 + $1.count }
                    defer { state.producer = nil }
                    return (.bytes(chunks), state.producer)
                }
                guard state.buffers.isEmpty, let end = state.end else { return (.empty, nil) }
                return (.end(end), nil)
            }
            producer?.succeed()
            return taken
        }

        /// Returns once bytes or the end have arrived.
        func waitForBytes() async {
            await withCheckedContinuation { consumer in
                let isReady = state.withLock { state in
                    let isReady = !state.chunks.isEmpty || (state.end != nil && state.buffers.isEmpty)
                    if !isReady { state.consumer = consumer }
                    return isReady
                }
                if isReady { consumer.resume() }
            }
        }

        // MARK: HTTPClientResponseDelegate, on the connection's event loop

        func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            let hasEnded = state.withLock { state in
                state.task = task
                state.url = request.url
                return state.end != nil
            }
            if hasEnded { task.cancel() }
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            let (received, waiter) = state.withLock { state -> (Head?, CheckedContinuation<Head, any Error>?) in
                guard state.head == nil else { return (nil, nil) }
                let received = Head(status: head.status, headers: head.headers, url: state.url)
                state.head = .success(received)
                defer { state.headWaiter = nil }
                return (received, state.headWaiter)
            }
            if let received { waiter?.resume(returning: received) } else { task.cancel() }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        /// Keeps the buffer until the end of this turn of the loop, when it is gathered with the
        /// others of the turn (``gather()``).
        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            let (gathers, producer, hasEnded) = state.withLock { state -> (Bool, EventLoopPromise<Void>?, Bool) in
                guard state.end == nil else { return (false, nil, true) }
                state.buffers.append(buffer)
                state.waiting += buffer.readableBytes
                if state.waiting >= limit { state.producer = task.eventLoop.makePromise() }
                let gathers = !state.isGatherScheduled
                state.isGatherScheduled = true
                return (gathers, state.producer, false)
            }
            if hasEnded { task.cancel() }
            if gathers { task.eventLoop.execute { self.gather() } }
            return producer?.futureResult ?? task.eventLoop.makeSucceededVoidFuture()
        }

        /// Copies the buffers of the turn into one chunk of exactly their size, on the loop
        /// that read them, and wakes the waiting fetch.
        private func gather() {
            // Under the lock throughout: the fetch must not find the buffers gone and the chunk
            // not yet there, and take the end before them.
            let consumer = state.withLock { state in
                state.isGatherScheduled = false
                var chunk = Data(capacity: state.buffers.reduce(0) { $0 + $1.readableBytes })
                for buffer in state.buffers {
                    buffer.withUnsafeReadableBytes { chunk.append(contentsOf: $0) }
                }
                state.buffers = []
                if !chunk.isEmpty { state.chunks.append(chunk) }
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume()
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
            finish(.failure(error))
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            finish(.success(()))
        }

        /// Ends the transfer, unless it has ended: a head not yet received fails, and the body
        /// ends with `result` after its queued bytes. Returns whether this call ended it.
        @discardableResult
        private func finish(_ result: Result<Void, any Error>) -> Bool {
            let ended = state.withLock { state
                -> (CheckedContinuation<Head, any Error>?, CheckedContinuation<Void, Never>?, EventLoopPromise<Void>?)? in
                guard state.end == nil else { return nil }
                state.end = result
                var waiter: CheckedContinuation<Head, any Error>?
                if state.head == nil, case .failure(let error) = result {
                    state.head = .failure(error)
                    waiter = state.headWaiter
                    state.headWaiter = nil
                }
                defer {
                    state.consumer = nil
                    state.producer = nil
                }
                return (waiter, state.consumer, state.producer)
            }
            guard let (waiter, consumer, producer) = ended else { return false }
            if let waiter, case .failure(let error) = result { waiter.resume(throwing: error) }
            consumer?.resume()
            producer?.succeed()
            return true
        }
    }
}

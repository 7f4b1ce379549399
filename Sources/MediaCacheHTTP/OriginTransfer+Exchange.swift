import Foundation
import MediaCache
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension OriginTransfer {
    /// The connection's side of the transfer (``OriginExchange``, on the connection's loop), the
    /// waits of the fetch's side, and the redirects between them.
    final class Exchange: OriginExchange {
        enum Taken {
            /// The chunks gathered since the last take, oldest first.
            case bytes([Data])
            case end(Result<Void, any Error>)
            case empty
        }

        /// The connection carrying the current request, and its loop.
        private struct Carrier: Sendable {
            let connection: NIOLoopBound<OriginConnection>
            let loop: any EventLoop

            func run(_ work: @escaping @Sendable (OriginConnection) -> Void) {
                if loop.inEventLoop {
                    work(connection.value)
                } else {
                    loop.execute { work(connection.value) }
                }
            }
        }

        private struct State {
            /// The request being asked: the first, or a redirect's.
            var request: OriginClient.Request
            /// The URLs asked so far, to refuse a redirect back to one of them. An array: most
            /// transfers ask one URL, which a set would cost each miss more to build.
            var asked: [URL]
            var carrier: Carrier?
            /// Whether the request was sent again after a kept connection closed unanswered.
            var isRetried = false
            /// Where the current response redirects, or why it may not: its body is dropped.
            var redirect: Result<URL, OriginClientError>?
            var head: Result<Head, any Error>?
            var headWaiter: CheckedContinuation<Head, any Error>?
            /// The buffers this turn of the loop read, not yet gathered.
            var buffers: [ByteBuffer] = []
            /// The gathered chunks, oldest first.
            var chunks: [Data] = []
            /// The bytes of both.
            var waiting = 0
            /// Whether the connection holds its reads until the fetch takes what waits.
            var isHeld = false
            /// How the transfer ended: finished, failed or cancelled.
            var end: Result<Void, any Error>?
            /// The fetch, waiting for bytes.
            var consumer: CheckedContinuation<Void, Never>?
        }

        private let client: OriginClient
        private let maximumRedirects: Int
        private let limit: Int
        private let ended: (@Sendable (Head?, (any Error)?) -> Void)?
        private let state: Locked<State>

        init(
            request: OriginClient.Request, client: OriginClient, maximumRedirects: Int, limit: Int,
            ended: (@Sendable (Head?, (any Error)?) -> Void)?
        ) {
            self.client = client
            self.maximumRedirects = maximumRedirects
            self.limit = limit
            self.ended = ended
            state = Locked(State(request: request, asked: [request.url]))
        }

        /// Sends the current request: again, on a new connection, when `isRetry`.
        func send(isRetry: Bool = false) {
            let request = state.withLock { $0.request }
            client.send(request, isRetry: isRetry, to: self) { [self] connection, loop in
                state.withLock { state in
                    guard state.end == nil else { return false }
                    state.carrier = Carrier(connection: connection, loop: loop)
                    return true
                }
            }
        }

        /// Stops the request unless it has ended, and ends both waits at once with
        /// `CancellationError`. A redirect not yet sent is not sent.
        func cancel() {
            guard finish(.failure(CancellationError())) else { return }
            state.withLock { $0.carrier }?.run { [self] connection in connection.cancel(self) }
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

        /// Every gathered chunk, or the end once every byte is taken; lets the connection read
        /// on.
        func take() -> Taken {
            let (taken, held) = state.withLock { state -> (Taken, Carrier?) in
                guard state.chunks.isEmpty else {
                    let chunks = state.chunks
                    state.chunks = []
                    state.waiting -= chunks.reduce(0) { $0 + $1.count }
                    defer { state.isHeld = false }
                    return (.bytes(chunks), state.isHeld ? state.carrier : nil)
                }
                guard state.buffers.isEmpty, let end = state.end else { return (.empty, nil) }
                return (.end(end), nil)
            }
            held?.run { $0.resume() }
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

        // MARK: OriginExchange, on the connection's event loop

        func received(_ head: HTTPResponseHead) {
            let answered = state.withLock { state -> (Head, CheckedContinuation<Head, any Error>?)? in
                guard state.end == nil, state.head == nil else { return nil }
                let url = state.request.url
                if let target = OriginRedirect.target(of: head, from: url) {
                    if state.asked.count > maximumRedirects {
                        state.redirect = .failure(.tooManyRedirects(maximumRedirects))
                    } else if state.asked.contains(target) {
                        state.redirect = .failure(.redirectCycle(target))
                    } else {
                        state.redirect = .success(target)
                    }
                    return nil
                }
                let answer = Head(status: head.status, headers: head.headers, url: url)
                state.head = .success(answer)
                defer { state.headWaiter = nil }
                return (answer, state.headWaiter)
            }
            if let (answer, waiter) = answered { waiter?.resume(returning: answer) }
        }

        func received(_ body: ByteBuffer) -> Bool {
            state.withLock { state in
                guard state.redirect == nil, state.end == nil else { return true }
                state.buffers.append(body)
                state.waiting += body.readableBytes
                state.isHeld = state.waiting >= limit
                return !state.isHeld
            }
        }

        /// Makes the buffers of the turn one chunk, on the loop that read them, and wakes the
        /// waiting fetch.
        func readComplete() {
            // Under the lock throughout: the fetch must not find the buffers gone and the chunk
            // not yet there, and take the end before them.
            let consumer = state.withLock { state in
                guard !state.buffers.isEmpty else { return nil as CheckedContinuation<Void, Never>? }
                let chunk = Self.chunk(of: state.buffers)
                state.buffers = []
                if !chunk.isEmpty { state.chunks.append(chunk) }
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume()
        }

        /// One turn's buffers as one `Data`. A turn's single buffer (a connection reads once per
        /// turn) that its body fills at least half of becomes the chunk without a copy: the chunk
        /// keeps the buffer's storage, which the connection then no longer reuses for its next
        /// read, and which nothing writes to while the chunk holds it. A buffer mostly empty (a
        /// read smaller than the one before, a body's last bytes) is copied, so that a chunk
        /// never keeps more than twice its bytes in memory; so are several buffers (a chunked
        /// body's parts), into one chunk of exactly their size.
        static func chunk(of buffers: [ByteBuffer]) -> Data {
            if buffers.count == 1, let only = buffers.first, only.readableBytes * 2 >= only.storageCapacity {
                return only.getData(at: only.readerIndex, length: only.readableBytes, byteTransferStrategy: .noCopy) ?? Data()
            }
            var chunk = Data(capacity: buffers.reduce(0) { $0 + $1.readableBytes })
            for buffer in buffers {
                buffer.withUnsafeReadableBytes { chunk.append(contentsOf: $0) }
            }
            return chunk
        }

        func ended(_ result: Result<Void, any Error>) {
            enum Next { case finish(Result<Void, any Error>), follow, retry }
            let next = state.withLock { state -> Next in
                state.carrier = nil
                guard state.end == nil else { return .finish(result) }
                switch (result, state.redirect) {
                case (.success, .success(let target)?):
                    state.request.headers = OriginRedirect.headers(state.request.headers, from: state.request.url, to: target)
                    state.request.url = target
                    state.asked.append(target)
                    state.redirect = nil
                    return .follow
                case (.success, .failure(let refusal)?):
                    return .finish(.failure(refusal))
                case (.failure(let error as OriginClientError), nil)
                where error == .closedBeforeAnswer(reused: true) && !state.isRetried:
                    state.isRetried = true
                    return .retry
                default:
                    return .finish(result)
                }
            }
            switch next {
            case .follow:
                send()
            case .retry:
                send(isRetry: true)
            case .finish(let result):
                readComplete()
                finish(result)
            }
        }

        /// Ends the transfer, unless it has ended: a head not yet received fails, and the body
        /// ends with `result` after its queued bytes. Returns whether this call ended it.
        @discardableResult
        private func finish(_ result: Result<Void, any Error>) -> Bool {
            let ended = state.withLock {
                state
                    -> (CheckedContinuation<Head, any Error>?, CheckedContinuation<Void, Never>?, Result<Head, any Error>?)? in
                guard state.end == nil else { return nil }
                state.end = result
                var waiter: CheckedContinuation<Head, any Error>?
                if state.head == nil, case .failure(let error) = result {
                    state.head = .failure(error)
                    waiter = state.headWaiter
                    state.headWaiter = nil
                }
                defer { state.consumer = nil }
                return (waiter, state.consumer, state.head)
            }
            guard let (waiter, consumer, head) = ended else { return false }
            if let waiter, case .failure(let error) = result { waiter.resume(throwing: error) }
            consumer?.resume()
            let failure: (any Error)? = if case .failure(let error) = result { error } else { nil }
            self.ended?(try? head?.get(), failure)
            return true
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache

/// One data task's answer as a head and then body chunks, with a bounded amount of body held:
/// ``SessionRouter`` hands it the task's events. Past `limit` bytes not yet taken the task is
/// suspended, so that the network waits for a slow consumer and memory stays bounded; it
/// resumes once they were taken.
final class DataTaskStream: Sendable {
    private struct State {
        var head: Result<HTTPURLResponse, any Error>?
        var headWaiter: CheckedContinuation<HTTPURLResponse, any Error>?
        var chunks: [Data] = []
        var buffered = 0
        var end: Result<Void, any Error>?
        var bodyWaiter: CheckedContinuation<Data?, any Error>?
        var suspended = false
    }

    private let state = Locked(State())
    private let limit: Int
    private let task: URLSessionDataTask

    /// A stream of `task`'s answer, holding at most about `limit` bytes of its body.
    init(_ task: URLSessionDataTask, limit: Int) {
        self.limit = limit
        self.task = task
    }

    /// The response head; cancelling the calling task cancels the transfer.
    func head() async throws -> HTTPURLResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<HTTPURLResponse, any Error>? in
                    if let head = state.head { return head }
                    state.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The body's next bytes (everything that arrived since the last call), `nil` at its end.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (ready, resumes) = state.withLock { state -> (Result<Data?, any Error>?, Bool) in
                    if !state.chunks.isEmpty {
                        let chunk = state.chunks.count == 1 ? state.chunks[0] : state.chunks.reduce(into: Data()) { $0.append($1) }
                        state.chunks = []
                        state.buffered = 0
                        defer { state.suspended = false }
                        return (.success(chunk), state.suspended)
                    }
                    switch state.end {
                    case .success?: return (.success(nil), false)
                    case .failure(let error)?: return (.failure(error), false)
                    case nil:
                        state.bodyWaiter = continuation
                        return (nil, false)
                    }
                }
                if resumes { task.resume() }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Stops the transfer.
    func cancel() {
        task.cancel()
    }

    /// The task's response head arrived.
    func received(_ response: URLResponse) {
        let waiter = state.withLock { state -> (CheckedContinuation<HTTPURLResponse, any Error>, Result<HTTPURLResponse, any Error>)? in
            guard state.head == nil else { return nil }
            let head: Result<HTTPURLResponse, any Error> =
                (response as? HTTPURLResponse).map { .success($0) }
                ?? .failure(URLError(.badServerResponse))
            state.head = head
            defer { state.headWaiter = nil }
            return state.headWaiter.map { ($0, head) }
        }
        if let (waiter, head) = waiter { waiter.resume(with: head) }
    }

    /// Body bytes arrived.
    func received(_ data: Data) {
        let (waiter, suspends) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            if let waiter = state.bodyWaiter {
                state.bodyWaiter = nil
                return (waiter, false)
            }
            state.chunks.append(data)
            state.buffered += data.count
            guard state.buffered > limit, !state.suspended else { return (nil, false) }
            state.suspended = true
            return (nil, true)
        }
        if suspends { task.suspend() }
        waiter?.resume(returning: data)
    }

    /// The task ended, with `error` or completely.
    func completed(_ error: (any Error)?) {
        if let response = task.response { received(response) }
        let end: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
        let (headWaiter, head, bodyWaiter) = state.withLock { state in
            state.end = end
            if state.head == nil { state.head = .failure(error ?? URLError(.badServerResponse)) }
            defer { (state.headWaiter, state.bodyWaiter) = (nil, nil) }
            return (state.headWaiter, state.head, state.bodyWaiter)
        }
        if let headWaiter, let head { headWaiter.resume(with: head) }
        if let bodyWaiter {
            switch end {
            case .success: bodyWaiter.resume(returning: nil)
            case .failure(let error): bodyWaiter.resume(throwing: error)
            }
        }
    }
}

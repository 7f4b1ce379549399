import Foundation
import MediaCache
import NIOCore
import NIOHTTP1

/// One request to the origin: its response head, after any redirects, then its body read
/// ahead of the fetch that takes it.
///
/// The transfer's ``Exchange`` is told the answer on the connection's event loop (see
/// ``OriginClient``), where the head and each turn's body buffers reach the waiting fetch with
/// one hand-over between threads, the one that wakes it.
///
/// The body is read ahead: the connection reads on while fewer than `limit` bytes wait, so the
/// origin's bytes keep moving while the fetch writes what it took to the store, and holds its
/// reads once `limit` bytes wait, plus what the turn that crossed it read (one read of at most
/// ``OriginClient/largestRead``), until the fetch takes them.
///
/// A connection reads once per turn of its loop. At the end of the turn, on that loop, the
/// turn's body becomes one `Data` that shares the read's buffer, without a copy (a read that
/// fills less than half its buffer, and a chunked body's several parts in one turn, are
/// copied into one `Data` of exactly their size), and a waiting fetch is woken once for it.
/// Each ``next()`` takes what was gathered since the last: one turn's chunk while the fetch
/// keeps up, all of them joined when it fell behind: a cold fetch's bytes are never copied
/// between the socket and the store.
///
/// ```swift
/// let transfer = OriginTransfer(request, on: client, maximumRedirects: 10, limit: 512 << 10)
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

    private let exchange: Exchange

    /// Starts `request` on `client`; `ended` is called once, when the transfer ends, with the
    /// final response's head if one came and the failure if it failed.
    init(
        _ request: OriginClient.Request, on client: OriginClient, maximumRedirects: Int, limit: Int,
        ended: (@Sendable (Head?, (any Error)?) -> Void)? = nil
    ) {
        exchange = Exchange(request: request, client: client, maximumRedirects: maximumRedirects, limit: limit, ended: ended)
        exchange.send()
    }

    deinit {
        exchange.cancel()
    }

    /// The final response's head.
    ///
    /// - Throws: the request's failure; `CancellationError` when the calling task is cancelled.
    func head() async throws -> Head {
        try await withTaskCancellationHandler {
            try await exchange.head()
        } onCancel: {
            exchange.cancel()
        }
    }

    /// Everything the body brought since the last call, as one chunk; waits for the next
    /// turn's buffers when none have arrived. `nil` at the body's end.
    ///
    /// - Throws: the transfer's failure, or `CancellationError` when the calling task is
    ///   cancelled.
    func next() async throws -> Data? {
        while true {
            switch exchange.take() {
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
                    await exchange.waitForBytes()
                } onCancel: {
                    exchange.cancel()
                }
                try Task.checkCancellation()
            }
        }
    }
}

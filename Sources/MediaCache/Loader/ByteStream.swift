import Foundation

/// The bytes of one read, as an async sequence of ``ByteChunk``s.
///
/// Each iteration is a reader of its own; iterate once.
public struct ByteStream: AsyncSequence, Sendable {
    public typealias Element = ByteChunk

    let loader: MediaLoader
    let url: URL
    let request: ByteRequest
    let purpose: ReadPurpose

    public func makeAsyncIterator() -> Iterator {
        Iterator(session: ReaderSession(loader: loader, url: url, request: request, purpose: purpose))
    }

    /// Delivers the chunks; dropping it detaches the reader.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let session: ReaderSession

        public mutating func next() async throws -> ByteChunk? {
            switch try await session.next(fileSpanLimit: nil) {
            case .bytes(let chunk): chunk
            case .file: preconditionFailure("a read without file spans was handed one")
            case nil: nil
            }
        }

        /// The next part of the read, `nil` at its end, for a caller that sends files itself:
        /// cached bytes come as spans of the store's data file of at most `limit` bytes (when
        /// the store's file system has descriptors to send), other bytes as in ``next()``.
        ///
        /// A span is handed over once its bytes are ready, not once they are sent; a caller that
        /// queues several has the reader that far ahead of its client. The statistics count a
        /// span's bytes as the caller reports them sent (``FileChunk/sent(_:)``).
        public mutating func nextPart(fileSpansUpTo limit: Int64) async throws -> ReadPart? {
            precondition(limit > 0, "a file span must be allowed at least one byte")
            return try await session.next(fileSpanLimit: limit)
        }

        /// The resource's record as soon as the read knows it, before its first byte: the
        /// stored one at once; for a resource nothing is known of, the one the origin's answer
        /// to the read's first request brings, once it is recorded and while its body is still
        /// on its way. Starts the read when it has not started.
        ///
        /// A server answers a miss's status and headers from it without waiting for the body:
        ///
        /// ```swift
        /// var read = loader.read(url, ByteRequest(offset: 0))
        ///     .makeAsyncIterator()
        /// let record = try await read.record()          // one origin round trip
        /// respondHead(length: record.contentInfo.totalLength)
        /// while let chunk = try await read.next() { respondBody(chunk.bytes) }
        /// ```
        ///
        /// - Throws: the read's failure when the origin's answer recorded nothing (a `404`, an
        ///   unreachable host), or ``LoaderError/cancelled``.
        public func record() async throws(LoaderError) -> ResourceRecord {
            try await session.record()
        }

        /// Ends the read from any task: a `next()` waiting for bytes, and every later one,
        /// throws ``LoaderError/cancelled``, and fetches nobody else needs stop asking for more.
        /// A server calls it when its client's connection closes.
        public func cancel() {
            session.cancel()
        }
    }
}

/// One reader's registration with its resource loader, ended when the read ends, fails, is
/// cancelled or is dropped.
final class ReaderSession: Sendable {
    private struct State {
        var registration: (ResourceLoader, ResourceLoader.ReaderID)?
        var isFinished = false
        var isCancelled = false
    }

    private let loader: MediaLoader
    private let url: URL
    private let request: ByteRequest
    private let purpose: ReadPurpose
    private let state = Locked(State())

    init(loader: MediaLoader, url: URL, request: ByteRequest, purpose: ReadPurpose) {
        self.loader = loader
        self.url = url
        self.request = request
        self.purpose = purpose
    }

    func next(fileSpanLimit: Int64?) async throws(LoaderError) -> ReadPart? {
        guard let (resource, id) = await register() else {
            if state.withLock(\.isCancelled) { throw .cancelled }
            return nil
        }
        do {
            guard let part = try await resource.next(id, fileSpanLimit: fileSpanLimit) else {
                await finishHere()
                return nil
            }
            switch part {
            case .bytes:
                loader.recorder.delivered(part, of: resource.key, for: purpose)
                return part
            case .file(var chunk):
                // Counted as the caller sends it: see ``FileChunk``.
                let (recorder, key, purpose, source) = (loader.recorder, resource.key, purpose, chunk.source)
                chunk.onSent = { range in recorder.delivered(range, source: source, of: key, for: purpose) }
                return .file(chunk)
            }
        } catch {
            await finishHere()
            throw error
        }
    }

    func record() async throws(LoaderError) -> ResourceRecord {
        guard let (resource, id) = await register() else { throw .cancelled }
        do {
            return try await resource.record(for: id)
        } catch {
            await finishHere()
            throw error
        }
    }

    /// The reader's registration, made on first use; `nil` once the read is over.
    private func register() async -> (ResourceLoader, ResourceLoader.ReaderID)? {
        if let registration = state.withLock(\.registration) { return registration }
        guard !state.withLock(\.isFinished) else { return nil }
        let resource = loader.acquire(url)
        let id = await resource.addReader(request, purpose: purpose)
        let isFinished = state.withLock { state in
            if !state.isFinished { state.registration = (resource, id) }
            return state.isFinished
        }
        guard !isFinished else {
            // Cancelled while registering.
            await Self.unregister(id, from: resource, of: loader)
            return nil
        }
        return (resource, id)
    }

    /// Ends the read from any task; see ``ByteStream/Iterator/cancel()``.
    func cancel() {
        state.withLock { $0.isCancelled = true }
        finish()
    }

    /// Detaches the reader and lets its loader go, in a task of its own; later calls do nothing.
    func finish() {
        guard let (resource, id) = endRegistration() else { return }
        // Not a method of self: finish() runs in deinit, which nothing may outlive holding self.
        let loader = loader
        Task { await Self.unregister(id, from: resource, of: loader) }
    }

    /// Detaches the reader and lets its loader go, in the read's own task: a read that ends or
    /// fails costs no task of its own, which would wake a thread of the cooperative pool on
    /// every response.
    private func finishHere() async {
        guard let (resource, id) = endRegistration() else { return }
        await Self.unregister(id, from: resource, of: loader)
    }

    /// Marks the read finished; its registration, the first time.
    private func endRegistration() -> (ResourceLoader, ResourceLoader.ReaderID)? {
        state.withLock { state in
            defer {
                state.registration = nil
                state.isFinished = true
            }
            return state.isFinished ? nil : state.registration
        }
    }

    /// Removes reader `id` from `resource` and lets `loader` release it.
    private static func unregister(_ id: ResourceLoader.ReaderID, from resource: ResourceLoader, of loader: MediaLoader) async {
        await resource.removeReader(id)
        loader.release(resource.key)
    }

    deinit {
        finish()
    }
}

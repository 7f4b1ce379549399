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
    public struct Iterator: AsyncIteratorProtocol {
        let session: ReaderSession

        public mutating func next() async throws -> ByteChunk? {
            try await session.next()
        }
    }
}

/// One reader's registration with its resource loader, ended when the read ends, fails, is
/// cancelled or is dropped.
final class ReaderSession: Sendable {
    private struct State {
        var registration: (ResourceLoader, ResourceLoader.ReaderID)?
        var isFinished = false
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

    func next() async throws(LoaderError) -> ByteChunk? {
        guard let (resource, id) = await register() else { return nil }
        do {
            guard let chunk = try await resource.next(id) else {
                finish()
                return nil
            }
            loader.recorder.delivered(chunk, of: resource.key, for: purpose)
            return chunk
        } catch {
            finish()
            throw error
        }
    }

    /// The reader's registration, made on first use; `nil` once the read is over.
    private func register() async -> (ResourceLoader, ResourceLoader.ReaderID)? {
        if let registration = state.withLock(\.registration) { return registration }
        guard !state.withLock(\.isFinished) else { return nil }
        let resource = loader.acquire(url)
        let id = await resource.addReader(request, purpose: purpose)
        state.withLock { $0.registration = (resource, id) }
        return (resource, id)
    }

    /// Detaches the reader and lets its loader go; later calls do nothing.
    func finish() {
        let registration = state.withLock { state in
            defer {
                state.registration = nil
                state.isFinished = true
            }
            return state.isFinished ? nil : state.registration
        }
        guard let (resource, id) = registration else { return }
        let loader = loader
        let key = loader.store.key(for: url)
        Task {
            await resource.removeReader(id)
            loader.release(key)
        }
    }

    deinit {
        finish()
    }
}

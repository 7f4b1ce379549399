import Foundation
import MediaCache
import NIOCore

/// The read of a `GET` for a resource nothing is known of, started before its answer is
/// planned, so that a miss costs one origin round trip rather than a probe and then a fetch.
///
/// The read asks the origin for the requested bytes at once; by the time its first chunk is
/// there, the loader has recorded what the origin's answer said of the resource (length,
/// type, validators), exactly as a probe would have, and the answer is planned from that
/// record. When the plan wants other bytes than were read (an origin that gives no length, a
/// range past the end), the read is dropped and the planned one runs instead; what the
/// dropped read fetched stays cached.
///
/// Requests whose answer needs the length or the validators before any byte (a suffix range,
/// `If-Range`) and playlist URLs still probe.
struct ColdStart {
    /// The bytes the read asks for.
    let request: ByteRequest
    /// The read's first chunk; `nil` when it had none.
    let first: ByteChunk?
    /// The rest of the read.
    let rest: ByteStream.Iterator

    /// The read to start at once for a `GET` with these `Range` and `If-Range` headers; `nil`
    /// when the answer must be planned first.
    static func request(range: String?, ifRange: String?) -> ByteRequest? {
        guard ifRange == nil else { return nil }
        guard let range else { return ByteRequest(offset: 0, takesAll: true) }
        switch RangeResponsePlan.parse(range) {
        case .from(let first, let last):
            return last.map { ByteRequest(offset: first, length: $0 - first + 1) } ?? ByteRequest(offset: first)
        case .suffix:
            return nil
        case nil:
            return ByteRequest(offset: 0)
        }
    }

    /// Starts reading `request` of `origin` and waits for its first chunk; a closed
    /// connection cancels the read.
    ///
    /// - Throws: the read's failure when the origin's answer left nothing recorded (a `404`,
    ///   an unreachable host), so that the caller answers with it instead of asking again, or
    ///   when the store could not keep the bytes (``MediaStoreError/diskFull(key:underlying:)``).
    static func start(_ request: ByteRequest, of origin: URL, loader: MediaLoader,
                      connectionClosed: EventLoopFuture<Void>) async throws(LoaderError) -> (ColdStart, ResourceRecord) {
        var chunks = loader.read(origin, request).makeAsyncIterator()
        let read = chunks
        connectionClosed.whenComplete { _ in read.cancel() }
        var first: ByteChunk?
        var failure: LoaderError?
        do {
            first = try await chunks.next()
        } catch {
            failure = error as? LoaderError ?? .cancelled
        }
        let record = try? loader.store.record(for: loader.store.key(for: origin))
        // A full disk may leave the answer recorded and its bytes not: the caller relays it.
        if case .store(let error)? = failure, error.isDiskFull {
            read.cancel()
            throw .store(error)
        }
        guard let record else {
            read.cancel()
            throw failure ?? .cancelled
        }
        return (ColdStart(request: request, first: first, rest: chunks), record)
    }

    /// Whether the read delivers exactly `planned`, for a resource of `length` bytes.
    func delivers(_ planned: ByteRequest, length: Int64?) -> Bool {
        guard planned.offset == request.offset else { return false }
        guard let length else { return planned.end == request.end }
        return min(planned.end ?? length, length) == min(request.end ?? length, length)
    }
}

import Foundation
import MediaCache
import NIOCore

/// The read of a `GET` for a resource nothing is known of, started before its answer is
/// planned, so that a miss costs one origin round trip rather than a probe and then a fetch.
///
/// The read asks the origin for the requested bytes at once. As soon as the loader has
/// recorded what the origin's answer said of the resource (length, type, validators), exactly
/// as a probe would have, the answer is planned from that record and its head sent, while the
/// body is still on its way to the store. When the plan wants other bytes than were read (an
/// origin that gives no length, a range past the end), the read is dropped and the planned one
/// runs instead; what the dropped read fetched stays cached.
///
/// Requests whose answer needs the length or the validators before any byte (a suffix range,
/// `If-Range`) still probe. A playlist's path never comes here: ``PlaylistSource`` reads it.
struct ColdStart {
    /// The bytes the read asks for.
    let request: ByteRequest
    /// The read, not yet iterated.
    let read: ByteStream.Iterator

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

    /// Starts reading `request` of `origin` and waits for the resource's record; a closed
    /// connection cancels the read.
    ///
    /// - Throws: the read's failure when the origin's answer left nothing recorded (a `404`,
    ///   an unreachable host, a full disk: ``MediaStoreError/diskFull(key:underlying:)``), so
    ///   that the caller answers with it instead of asking again.
    static func start(
        _ request: ByteRequest, of origin: URL, loader: MediaLoader,
        connectionClosed: EventLoopFuture<Void>
    ) async throws(LoaderError) -> (ColdStart, ResourceRecord) {
        let read = loader.read(origin, request).makeAsyncIterator()
        connectionClosed.whenComplete { _ in read.cancel() }
        do {
            return (ColdStart(request: request, read: read), try await read.record())
        } catch {
            read.cancel()
            throw error
        }
    }

    /// Whether the read delivers exactly `planned`, for a resource of `length` bytes.
    func delivers(_ planned: ByteRequest, length: Int64?) -> Bool {
        guard planned.offset == request.offset else { return false }
        guard let length else { return planned.end == request.end }
        return min(planned.end ?? length, length) == min(request.end ?? length, length)
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheHLS

/// Executes the decision for a proxied resource (``ResourceAnswer``): streams the bytes its
/// range plan names from the loader, hands playlists to ``PlaylistResponder`` and what the
/// store could not record to ``UncachedRelay``; for a resource the store knows nothing of, the
/// origin's answer completes the decision (``ColdStart``). A hit the connection could send at
/// once never gets here.
struct ProxyResponder: Sendable {
    let loader: MediaLoader
    let playlists: PlaylistResponder

    init(playlists: PlaylistSource, token: String?) {
        loader = playlists.loader
        self.playlists = PlaylistResponder(playlists: playlists, token: token)
    }

    /// The answer to `request` for `origin`, as `answer` decided.
    func respond(to request: Request, origin: URL, answer: ResourceAnswer, context: ProxyRequestContext) async throws -> Response {
        switch answer {
        case .hit(let record, let plan, _), .stream(let record, let plan):
            return respond(to: request, origin: origin, record: record, plan: plan, cold: nil, context: context)
        case .playlist:
            return try await playlists.respond(to: request, origin: origin, context: context)
        case .relay(let failure):
            let relay = UncachedRelay(origin: loader.origin, url: origin, tally: context.tally)
            return try await relay.respond(to: request, because: .store(failure))
        case .fetch(let known):
            let record: ResourceRecord
            let cold: ColdStart?
            do {
                (record, cold) = try await self.record(of: origin, known: known, for: request, context: context)
            } catch {
                guard let failure = error.store else { throw error }
                return try await respond(to: request, origin: origin, answer: .unrecorded(origin, because: failure), context: context)
            }
            let isPlaylist = (try? await PlaylistDetection.isPlaylist(origin, info: record.contentInfo, loader: loader)) ?? false
            let decided = ResourceAnswer.answer(
                for: record, isPlaylist: isPlaylist, method: request.method,
                range: request.headers[.range], ifRange: request.headers[.ifRange])
            switch decided {
            case .hit(_, let plan, _), .stream(_, let plan):
                return respond(to: request, origin: origin, record: record, plan: plan, cold: cold, context: context)
            default:
                cold?.read.cancel()
                return try await respond(to: request, origin: origin, answer: decided, context: context)
            }
        }
    }

    /// The bytes `plan` names of the resource `record` describes, from `cold`'s read when it
    /// delivers them, otherwise from a read of their own.
    private func respond(
        to request: Request, origin: URL, record: ResourceRecord, plan: RangeResponsePlan, cold: ColdStart?,
        context: ProxyRequestContext
    ) -> Response {
        let headers = Self.headers(for: record.contentInfo, plan: plan)
        let status = HTTPResponse.Status(code: plan.status)
        guard request.method == .get, let bytes = plan.bytes else {
            cold?.read.cancel()
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        let read: ByteStream.Iterator
        if let cold, cold.delivers(bytes, length: record.contentInfo.totalLength) {
            read = cold.read
        } else {
            cold?.read.cancel()
            read = loader.read(origin, bytes).makeAsyncIterator()
        }
        let tally = context.tally
        let connectionClosed = context.connectionClosed
        let relay = UncachedRelay(origin: loader.origin, url: origin, tally: tally)
        let validator = record.contentInfo.ifRangeValidator
        let firstSpan = Self.firstFileSpan(of: bytes, cached: record.available, totalLength: record.contentInfo.totalLength)
        return Response(
            status: status, headers: headers,
            body: ResponseBody { writer in
                // A client that goes away stops the read at once, even while it waits for the
                // network: nothing is fetched for a player that left.
                var chunks = read
                connectionClosed.whenComplete { _ in read.cancel() }
                // A failure mid-body ends the connection: the client sees a short response, never
                // wrong bytes. Cached bytes leave as spans of the data file where the connection
                // sends files. Bytes the store cannot keep (a full disk, a miss's resource the index
                // could not create after its head had left) come from the origin uncached.
                var position = bytes.offset
                do {
                    // The head leaves with the first part when the cache holds it (one write); when
                    // that part comes from the origin, it leaves at once, before the body arrives.
                    if !record.available.contains(bytes.offset) { try await writer.write(ByteBuffer()) }
                    var spanLimit = firstSpan
                    var next = try await chunks.nextPart(fileSpansUpTo: spanLimit)
                    while let part = next {
                        position += part.count
                        switch part {
                        case .bytes(let chunk):
                            tally.add(part)
                            try await writer.write(ByteBuffer(bytes: chunk.bytes))
                        case .file(let chunk):
                            let source = chunk.source
                            try await FileSpans.write(chunk.reportingSent { tally.add($0.length, from: source) }, to: &writer)
                            spanLimit = min(2 * spanLimit, Self.largestFileSpan)
                        }
                        next = try await chunks.nextPart(fileSpansUpTo: spanLimit)
                    }
                } catch let failure as LoaderError where failure.code == .store {
                    read.cancel()
                    tally.note("\(failure); the rest from byte \(position) came from the origin without caching")
                    do {
                        try await relay.continueBody(from: position, to: bytes.end, validator: validator, into: &writer)
                    } catch let error as LoaderError {
                        tally.fail("\(error)")
                        throw error
                    }
                } catch let error as LoaderError {
                    tally.fail("\(error)")
                    throw error
                }
                try await writer.finish(nil)
            })
    }

    /// The most cached bytes the first file span of a response sends; each further span may
    /// send twice as many as the one before, up to ``largestFileSpan``. Spans are queued on the
    /// connection as soon as they are read, so the reader runs up to two spans ahead of what
    /// the client took: a player that stops early (a seek, a replay of a short read) never
    /// has its reader far ahead, while a long hit costs a few spans, not one per 256 KiB.
    static let firstFileSpan: Int64 = 256 << 10
    static let largestFileSpan: Int64 = 4 << 20

    /// The most cached bytes the first file span of a response for `bytes` sends: all of
    /// them when the cache holds every byte of the response, otherwise ``firstFileSpan``.
    ///
    /// A span's bytes count as served only as they leave (``FileRegionSender``), so a large
    /// span costs a client that stops early nothing; what keeps spans small is the reader's
    /// position, which paces the fetch of a gap after them. With no gap left in the response
    /// there is nothing to pace, and one span sends it all for one wake-up of the response's
    /// task instead of one per span.
    static func firstFileSpan(of bytes: ByteRequest, cached available: ByteRangeSet, totalLength: Int64?) -> Int64 {
        guard let end = [bytes.end, totalLength].compactMap({ $0 }).min(), end > bytes.offset,
            available.contains(ByteRange(bytes.offset, end))
        else { return firstFileSpan }
        return end - bytes.offset
    }

    /// The resource's record, which the store did not hold or held as `known`: for a `GET` of a
    /// resource nothing is known of, the one its read's answer brings (see ``ColdStart``), with
    /// that read; otherwise the one a probe brings.
    private func record(
        of origin: URL, known: ResourceRecord?, for request: Request, context: ProxyRequestContext
    )
        async throws(LoaderError) -> (ResourceRecord, ColdStart?)
    {
        if let known { return (known, nil) }
        guard request.method == .get,
            let coldRequest = ColdStart.request(range: request.headers[.range], ifRange: request.headers[.ifRange])
        else {
            return (try await loader.contentRecord(for: origin), nil)
        }
        let (cold, record) = try await ColdStart.start(
            coldRequest, of: origin, loader: loader,
            connectionClosed: context.connectionClosed)
        return (record, cold)
    }

    /// The headers every answer for a resource carries.
    static func headers(for info: ContentInfo) -> HTTPFields {
        var headers = HTTPFields()
        // Appended, not set: the fields are new, and setting one first looks for it.
        headers.append(HTTPField(name: .contentType, value: info.mimeType ?? "application/octet-stream"))
        headers.append(HTTPField(name: .acceptRanges, value: info.totalLength == nil ? "none" : "bytes"))
        if let etag = info.etag { headers.append(HTTPField(name: .eTag, value: etag)) }
        if let lastModified = info.lastModified { headers.append(HTTPField(name: .lastModified, value: lastModified)) }
        return headers
    }

    /// The headers of the answer `plan` makes for a resource: those of every answer, with its
    /// `Content-Range` and `Content-Length` when it has them.
    static func headers(for info: ContentInfo, plan: RangeResponsePlan) -> HTTPFields {
        var headers = headers(for: info)
        if let contentRange = plan.contentRange { headers.append(HTTPField(name: .contentRange, value: contentRange)) }
        if let length = plan.contentLength { headers.append(HTTPField(name: .contentLength, value: String(length))) }
        return headers
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheHLS

/// Answers `GET` and `HEAD` for proxy paths: maps the path to the origin URL, decides how the
/// resource is answered (``ProxiedAnswer``), and for bytes plans the range answer against what
/// the loader knows of the resource and streams them from the loader; playlists go to
/// ``PlaylistResponder``. A `GET` the cache holds whole never gets here: the connection answers
/// it at once (``CachedHitResponder``), with the same plan and headers.
struct ProxyResponder: Sendable {
    let loader: MediaLoader
    let allowedHosts: HostAllowList?
    let playlists: PlaylistResponder
    let targets: ProxyTargets

    init(loader: MediaLoader, allowedHosts: HostAllowList?, token: String?, freshness: PlaylistFreshness, targets: ProxyTargets) {
        self.loader = loader
        self.allowedHosts = allowedHosts
        self.targets = targets
        playlists = PlaylistResponder(loader: loader, token: token, freshness: freshness)
    }

    func respond(to request: Request, context: ProxyRequestContext) async -> Response {
        let origin: URL
        do {
            origin = try targets.origin(forTarget: request.uri.description)
        } catch {
            return Self.text(.badRequest, "\(error)\n")
        }
        if let refusal = Self.refusal(of: origin, allowedHosts: allowedHosts) { return refusal }
        let record: ResourceRecord
        var cold: ColdStart?
        do {
            (record, cold) = try await self.record(of: origin, for: request, context: context)
        } catch .store(let failure) {
            // Nothing could be recorded (a full disk; an answer the store keeps no record of, such
            // as an empty body): a playlist is still rewritten, anything else relayed, as the
            // rest of a body is when the store fails after the head has left.
            if PlaylistDetection.hasPlaylistExtension(origin) {
                return await playlists.respond(to: request, origin: origin, context: context)
            }
            let relay = UncachedRelay(origin: loader.origin, url: origin, tally: context.tally)
            return await relay.respond(to: request, because: .store(failure))
        } catch {
            return Self.failure(error)
        }
        if await ProxiedAnswer.kind(for: origin, info: record.contentInfo, loader: loader) == .playlist {
            cold?.read.cancel()
            return await playlists.respond(to: request, origin: origin, context: context)
        }
        let plan = RangeResponsePlan(range: request.headers[.range], ifRange: request.headers[.ifRange],
                                     info: record.contentInfo)
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
        return Response(status: status, headers: headers, body: ResponseBody { writer in
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
            } catch LoaderError.store(let failure) {
                read.cancel()
                tally.note("\(LoaderError.store(failure)); the rest from byte \(position) came from the origin without caching")
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
              available.contains(ByteRange(bytes.offset, end)) else { return firstFileSpan }
        return end - bytes.offset
    }

    /// The resource's record: the stored one; for a `GET` of a resource nothing is known of,
    /// the one its read's answer brings (see ``ColdStart``), with that read; otherwise the
    /// one a probe brings.
    private func record(of origin: URL, for request: Request, context: ProxyRequestContext)
        async throws(LoaderError) -> (ResourceRecord, ColdStart?)
    {
        let isKnown = (try? loader.store.record(for: loader.store.key(for: origin))) != nil
        guard request.method == .get, !isKnown, !PlaylistDetection.hasPlaylistExtension(origin),
              let coldRequest = ColdStart.request(range: request.headers[.range], ifRange: request.headers[.ifRange]) else {
            return (try await loader.contentRecord(for: origin), nil)
        }
        let (cold, record) = try await ColdStart.start(coldRequest, of: origin, loader: loader,
                                                       connectionClosed: context.connectionClosed)
        return (record, cold)
    }

    /// `403` for an origin whose host the allow-list leaves out; `nil` when it may be fetched.
    static func refusal(of origin: URL, allowedHosts: HostAllowList?) -> Response? {
        guard let allowedHosts, !allowedHosts.allows(origin) else { return nil }
        return text(.forbidden, "\(origin.host ?? "") is not among this proxy's allowed hosts\n")
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

    /// Origin error statuses pass through as they are; other failures name their cause.
    static func failure(_ error: LoaderError) -> Response {
        switch error {
        case .origin(.status(let code, _)):
            return text(HTTPResponse.Status(code: code), "origin answered \(code)\n")
        case .origin(let failure):
            return text(.badGateway, "\(failure)\n")
        case .tooLarge(let url, let limit):
            return text(.badGateway, "\(url) is larger than \(ByteCountText.string(limit)); it is not served\n")
        case .store(.diskFull):
            return text(HTTPResponse.Status(code: 507), "\(error)\n")
        case .rangeNotSatisfiable, .contentChanged, .cancelled, .store:
            return text(.internalServerError, "\(error)\n")
        }
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }
}

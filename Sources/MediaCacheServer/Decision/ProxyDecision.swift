import Foundation
import HTTPTypes
import MediaCache
import MediaCacheHLS

/// What the proxy does with one request, decided once, before any of it is answered: by
/// ``ProxyRules`` from the request's head and what the store holds. The connection executes a
/// ``ResourceAnswer/hit(_:plan:range:)`` on the spot; the responders execute everything,
/// a hit included when its span cannot be sent from the event loop.
enum ProxyDecision: Sendable {
    /// Refused, with the refusal as the answer.
    case reject(ProxyRefusal)
    /// A CORS preflight from a page the ``CORSAllowList`` allows: `204` with the methods and
    /// fields it may use.
    case preflight
    /// One of the server's own endpoints (the status page, the API, the metrics), at `target`:
    /// the request's path and query without any `/t/<token>` prefix.
    case endpoint(target: String)
    /// A resource of `origin`, answered as `answer` says.
    case resource(origin: URL, answer: ResourceAnswer)
}

/// How a proxied resource is answered.
enum ResourceAnswer: Sendable {
    /// A `GET` whose every byte is cached: `range` of the data file, sent as `plan` says.
    case hit(ResourceRecord, plan: RangeResponsePlan, range: ByteRange)
    /// The bytes `plan` names, read through the loader (none for a `HEAD` or a `416`).
    case stream(ResourceRecord, plan: RangeResponsePlan)
    /// An HLS playlist, rewritten so that every URI a player follows goes through the proxy.
    case playlist
    /// The origin's answer decides: nothing is stored of the resource (`known` is `nil`), or
    /// only its first bytes, not yet cached, tell whether it is a playlist.
    case fetch(known: ResourceRecord?)
    /// The origin's answer, relayed uncached: the store could record nothing of it.
    case relay(MediaStoreError)

    /// The answer to a request with `method`, `range` and `ifRange` for the resource `record`
    /// describes, which is a playlist as `isPlaylist` says (`nil`: only its first bytes,
    /// which are not cached, can tell).
    static func answer(
        for record: ResourceRecord, isPlaylist: Bool?, method: HTTPRequest.Method,
        range: String?, ifRange: String?
    ) -> ResourceAnswer {
        switch isPlaylist {
        case true?: return .playlist
        case nil: return .fetch(known: record)
        case false?: break
        }
        let plan = RangeResponsePlan(range: range, ifRange: ifRange, info: record.contentInfo)
        if method == .get, let bytes = plan.bytes, let length = plan.contentLength, length > 0,
            record.available.contains(ByteRange(offset: bytes.offset, length: length))
        {
            return .hit(record, plan: plan, range: ByteRange(offset: bytes.offset, length: length))
        }
        return .stream(record, plan: plan)
    }

    /// The answer for `origin` while the store holds nothing of it: a playlist's path is read
    /// as a playlist at once (its first read tells its size, see ``PlaylistSource``), anything
    /// else waits for the origin's answer.
    static func unknown(_ origin: URL) -> ResourceAnswer {
        PlaylistDetection.hasPlaylistExtension(origin) ? .playlist : .fetch(known: nil)
    }

    /// The answer when the store could record nothing of `origin` (a full disk; an answer the
    /// store keeps no record of, such as an empty body): a playlist is still rewritten,
    /// anything else relayed, as the rest of a body is when the store fails after its head
    /// has left.
    static func unrecorded(_ origin: URL, because failure: MediaStoreError) -> ResourceAnswer {
        PlaylistDetection.hasPlaylistExtension(origin) ? .playlist : .relay(failure)
    }
}

/// What the decision reads of the store: a resource's record and its cached first bytes.
protocol StoredResources: Sendable {
    func storedRecord(for url: URL) -> ResourceRecord?
    func cachedBytes(_ range: ByteRange, of record: ResourceRecord) -> Data?
}

extension MediaLoader: StoredResources {}

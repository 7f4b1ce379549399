import Foundation
import HTTPTypes
import MediaCache
import MediaCacheHLS
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Answers a `GET` whose every byte the cache holds on the spot: on the connection's event
/// loop, with no task, no Hummingbird request and no reader, its head and one span of the data
/// file leave at once (see ``ProxyChannel``). Anything else (a miss, a gap, a playlist, a
/// `HEAD`, the API, a refusal, a `416`, an encrypted store) gets `nil` and goes to the
/// Hummingbird responders as before.
///
/// The answer is theirs: the same access rules (``ProxyAccess``, the allow-list), the same
/// range plan and headers (``RangeResponsePlan``, ``ProxyResponder/headers(for:plan:)``), the same
/// access-log line (``ProxyLog``) and the same statistics (``MediaLoader/cachedSpan(_:of:purpose:)``).
/// What a hit no longer pays for is the rest, about half of the server's user-space CPU per
/// hit (BENCHMARKS.md, "Cache hits answered at once").
struct CachedHitResponder: Sendable {
    let access: ProxyAccess
    let allowedHosts: HostAllowList?
    let loader: MediaLoader
    let targets: ProxyTargets
    let log: ProxyLog

    /// A hit to send: its response head (before the connection's `Date`, `Server` and
    /// `Connection` headers) and its bytes.
    struct Hit {
        let head: HTTPResponseHead
        let chunk: FileChunk
        let entry: ProxyLog.Entry
    }

    /// The hit `request` is, or `nil` when it is anything else; `client` is the client's
    /// address as the access log writes it.
    func hit(_ request: HTTPRequestHead, client: String?) -> Hit? {
        guard request.method == .GET else { return nil }
        let fields = request.headers.map { (name: $0.name, value: $0.value) }
        guard case .allow(let target) = access.decide(target: request.uri, headers: fields),
              let origin = try? targets.origin(forTarget: target), allowedHosts?.allows(origin) ?? true,
              let record = try? loader.store.record(for: loader.store.key(for: origin)),
              PlaylistDetection.isPlaylist(origin, info: record.contentInfo, store: loader.store, key: record.key) == false
        else { return nil }
        let plan = RangeResponsePlan(range: Self.field("Range", of: request), ifRange: Self.field("If-Range", of: request),
                                     info: record.contentInfo)
        guard let bytes = plan.bytes, let length = plan.contentLength,
              let chunk = loader.cachedSpan(ByteRange(offset: bytes.offset, length: length), of: record) else { return nil }
        let response = HTTPResponse(status: HTTPResponse.Status(code: plan.status),
                                    headerFields: ProxyResponder.headers(for: record.contentInfo, plan: plan))
        return Hit(head: HTTPResponseHead(response), chunk: chunk,
                   entry: ProxyLog.Entry(client: client, method: request.method.rawValue, target: request.uri))
    }

    /// The value of the field `name`, its lines joined as HTTP/1 joins them (and as the
    /// Hummingbird responders read them): `nil` when it is absent.
    private static func field(_ name: String, of request: HTTPRequestHead) -> String? {
        let values = request.headers[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

import Foundation
import HTTPTypes
import MediaCache
import MediaCacheHLS

/// The proxy's rules, applied in order to decide on a request (``ProxyDecision``): a CORS
/// preflight of an allowed page (``CORSAllowList``, before the token, which preflights never
/// carry), who may use it (``ProxyAccess``), which path answers (``PathRoute``) and with which methods, which
/// origin URL a proxy path names (``ProxyTargets``), whether its host may be fetched
/// (``HostAllowList``), and, from what the store holds, how the resource is answered
/// (``ResourceAnswer/answer(for:isPlaylist:method:range:ifRange:)``).
///
/// Every step reads memory, and at most the first bytes of a cached file of a generic type,
/// so the connection decides on the event loop, before any task.
struct ProxyRules: Sendable {
    let access: ProxyAccess
    let allowedHosts: HostAllowList?
    let targets: ProxyTargets
    /// Whether `/metrics` is served.
    let hasMetrics: Bool
    /// The pages whose scripts may read answers; `nil` for none.
    let cors: CORSAllowList?

    /// The CORS fields every answer to `request` carries: `nil` unless it comes from a page
    /// ``cors`` allows.
    func crossOriginFields(for request: ProxyRequestHead) -> HTTPFields? {
        guard let cors, let origin = request.field("Origin"), cors.allows(origin) else { return nil }
        return cors.fields(for: origin)
    }

    func decide(_ request: ProxyRequestHead, stored: some StoredResources) -> ProxyDecision {
        if request.method == .options, request.field("Access-Control-Request-Method") != nil,
            let cors, let origin = request.field("Origin"), cors.allows(origin)
        {
            return .preflight
        }
        let target: String
        switch access.decide(target: request.target, headers: request.fields) {
        case .reject(let status, let message): return .reject(ProxyRefusal(HTTPResponse.Status(code: status), message))
        case .allow(let allowed): target = allowed
        }
        let route = PathRoute(path: String(target.prefix { $0 != "?" }), hasMetrics: hasMetrics)
        if let allowed = route.methods, !allowed.contains(request.method) {
            return .reject(
                ProxyRefusal(
                    .methodNotAllowed,
                    "\(request.method) is not allowed here; use \(allowed.map(\.rawValue).joined(separator: " or "))",
                    headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")]))
        }
        guard route == .proxy else { return .endpoint(target: target) }
        let origin: URL
        do {
            origin = try targets.origin(forTarget: target)
        } catch {
            return .reject(ProxyRefusal(.badRequest, "\(error)"))
        }
        if let refusal = allowedHosts?.refusal(of: origin) { return .reject(refusal) }
        guard let record = stored.storedRecord(for: origin) else { return .resource(origin: origin, answer: .unknown(origin)) }
        let isPlaylist = PlaylistDetection.isPlaylist(origin, info: record.contentInfo) {
            stored.cachedBytes(ByteRange(0, Int64($0)), of: record)
        }
        return .resource(
            origin: origin,
            answer: .answer(
                for: record, isPlaylist: isPlaylist, method: request.method,
                range: request.field("Range"), ifRange: request.field("If-Range")))
    }
}

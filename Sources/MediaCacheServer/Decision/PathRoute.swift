import HTTPTypes

/// What answers a request path: one of the server's own endpoints (the status page, the API,
/// the metrics), or the proxy.
enum PathRoute: Equatable {
    /// An endpoint of the server that takes `methods`; `nil` for a path under `/api` the server
    /// does not know, which the router answers.
    case endpoint(methods: [HTTPRequest.Method]?)
    /// A proxy path, answered by ``ProxyResponder``, which takes `GET` and `HEAD`.
    case proxy

    init(path: String, hasMetrics: Bool) {
        switch path {
        case "/", "/api/url", "/api/stats": self = .endpoint(methods: [.get])
        case "/metrics" where hasMetrics: self = .endpoint(methods: [.get])
        case "/api/entries": self = .endpoint(methods: [.get, .delete])
        case "/api/preload": self = .endpoint(methods: [.get, .post, .delete])
        case _ where path.hasPrefix("/api/entries/"): self = .endpoint(methods: path.hasSuffix("/pin") ? [.put, .delete] : [.delete])
        case _ where path == "/api" || path.hasPrefix("/api/"): self = .endpoint(methods: nil)
        default: self = .proxy
        }
    }

    /// The methods the path takes, or `nil` for a path the server does not know.
    var methods: [HTTPRequest.Method]? {
        switch self {
        case .endpoint(let methods): methods
        case .proxy: [.get, .head]
        }
    }
}

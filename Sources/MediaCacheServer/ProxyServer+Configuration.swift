import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import Prometheus

extension ProxyServer {
    /// Where the server listens and whom it serves.
    ///
    /// ```swift
    /// var configuration = ProxyServer.Configuration(port: 8080)
    /// configuration.allowedHosts = try HostAllowList(["cdn.example.com", "*.media.example"])
    /// configuration.token = "s3cret"     // needed to listen beyond loopback
    /// ```
    public struct Configuration: Sendable {
        /// The address to bind. Default: 127.0.0.1 (loopback only).
        public var host = "127.0.0.1"
        /// The port to bind; 0 picks a free one. Default: 8080.
        public var port = 8080
        /// The origin hosts the proxy fetches from; `nil` allows any. Default: `nil`.
        public var allowedHosts: HostAllowList?
        /// The web pages whose scripts may read the proxy's answers (a JavaScript player on
        /// another origin than the proxy's); `nil` lets none. Default: `nil`.
        public var cors: CORSAllowList?
        /// A secret every request must carry (see ``ProxyAccess``); required to listen beyond
        /// loopback. Default: `nil`.
        public var token: String?
        /// The registry `GET /metrics` reports; pass the one behind the `MetricsFactory` the
        /// loader counts into. Default: `nil` (no `/metrics`).
        public var metrics: PrometheusCollectorRegistry?
        /// Limits on the size of a request's head.
        public var limits = ProxyAccess.Limits()
        /// Where the access log is written, in the W3C Extended Log File Format (see
        /// `ExtendedLogFile`); `nil` writes none. Default: `nil`.
        public var accessLog: String?
        /// Where the error log is written, in the same format; `nil` writes none. Default: `nil`.
        public var errorLog: String?
        /// How long responses in progress may go on once a shutdown starts; then they are
        /// closed. Default: 2 seconds.
        public var shutdownGracePeriod: Duration = .seconds(2)

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: Int = 8080) {
            self.host = host
            self.port = port
        }

        /// Whether the address is reachable from this machine only: a loopback address, or a
        /// name (such as `localhost`) that resolves to loopback addresses only.
        public var isLoopback: Bool {
            LoopbackAddress.isLoopback(host)
        }

        /// The proxy URL form for this server's address and token.
        public var urls: ProxyURL { ProxyURL(host: host, port: port, token: token) }
    }
}

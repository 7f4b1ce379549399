import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import MediaCache
import MediaCacheHLS
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The local caching proxy: any player plays `http://HOST:PORT/<scheme>/<host>/<path>` through
/// the cache (see `ProxyURL`), and `http://HOST:PORT/` shows what is cached.
///
/// ```swift
/// let engine = try CacheEngine.open(at: MediaStore.defaultDirectory, origin: HTTPOrigin())
/// let server = try ProxyServer(engine: engine, configuration: .init(host: "127.0.0.1", port: 8080))
/// try await server.run()      // until SIGINT or SIGTERM
/// try await engine.shutdown()
/// ```
///
/// Beside the proxy paths it answers a JSON API (see `EntryReport`, `StatsReport`) that
/// queues preloads on the engine's preloader and drives its downloads, and, with a metrics
/// registry configured, `GET /metrics`.
public struct ProxyServer: Sendable {
    /// The cache every request reads through.
    public let engine: CacheEngine
    /// Where the server listens and whom it serves.
    public let configuration: Configuration

    /// The loader every request reads through.
    public var loader: MediaLoader { engine.loader }

    /// Creates a server over `engine`; the engine outlives it (shut it down after ``run(handlingSignals:onListening:)``).
    ///
    /// - Throws: ``ProxyServerError/openRelay(host:)`` for an address beyond loopback without a
    ///   token: the proxy fetches any URL it is given, so strangers must not reach it;
    ///   ``ProxyServerError/invalidToken(host:)`` for a token that cannot travel in a URL path.
    public init(engine: CacheEngine, configuration: Configuration) throws(ProxyServerError) {
        if let token = configuration.token {
            guard ProxyAccess.isValidToken(token) else { throw .invalidToken(host: configuration.host) }
        } else if !configuration.isLoopback {
            throw .openRelay(host: configuration.host)
        }
        self.engine = engine
        self.configuration = configuration
    }

    /// Serves until SIGINT or SIGTERM, or, with `handlingSignals` false (an embedded proxy),
    /// until the calling task is cancelled. `onListening` gets the bound port once it runs.
    ///
    /// The first signal stops the listener at once and gives responses in progress
    /// ``Configuration/shutdownGracePeriod`` to finish; then they are closed. A second signal
    /// closes them at once. Preloads and downloads are the engine's: they go on until it shuts
    /// down.
    ///
    /// - Throws: the file system's error when a configured log cannot be opened, and whatever
    ///   stops the server (such as ``ProxyServerError/portInUse(host:port:)``).
    public func run(handlingSignals: Bool = true, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let access = try configuration.accessLog.map { try ExtendedLogFile(path: $0, fields: ProxyLogFields.access) }
        let errors = try configuration.errorLog.map { try ExtendedLogFile(path: $0, fields: ProxyLogFields.error) }
        defer {
            access?.close()
            errors?.close()
        }
        let logger = Logger(label: "mediacache.server")
        let downloads = try await engine.downloads()
        var lifecycle = ServiceGroupConfiguration(
            services: [.init(service: application(downloads: downloads, accessLog: access, errors: errors, onListening: onListening))],
            logger: logger)
        lifecycle.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        let group = ServiceGroup(configuration: lifecycle)
        do {
            try await ShutdownSignals.run(group, handlingSignals: handlingSignals)
        } catch {
            throw ProxyServerError.make(error, configuration: configuration)
        }
    }

    /// The HTTP server: Hummingbird's router behind the proxy's own listener and connections
    /// (see ``ProxyListener``, ``ProxyChannel``).
    private func application(
        downloads: DownloadManager, accessLog: ExtendedLogFile?, errors: ExtendedLogFile?,
        onListening: @escaping @Sendable (Int) async -> Void
    ) -> any Service {
        let router = Router(context: ProxyRequestContext.self)
        ProxyAPI(engine: engine, downloads: downloads, configuration: configuration).register(on: router)
        let proxy = ProxyResponder(playlists: engine.playlists, token: configuration.token)
        let limits = configuration.limits
        // The decoder's bounds are looser than ours, so that a request between the two gets a
        // precise 431 from ``ProxyAccess``; beyond the decoder's, the connection is refused.
        var decoder = NIOHTTPDecoderLimitConfiguration()
        decoder.maxHeaderFieldSize = 4 * limits.maxHeaderListSize
        decoder.maxHeaderListSize = 4 * limits.maxHeaderListSize
        decoder.maxHeaderFieldCount = 4 * limits.maxHeaderFieldCount
        let rules = ProxyRules(
            access: ProxyAccess(token: configuration.token, limits: limits), allowedHosts: configuration.allowedHosts,
            targets: ProxyTargets(), hasMetrics: configuration.metrics != nil, cors: configuration.cors)
        let log = ProxyLog(access: accessLog, errors: errors)
        let responder = LoggingResponder(log: log, inner: DecisionResponder(proxy: proxy, routes: router.buildResponder()))
        let connections = ProxyChannel(
            responder: responder, rules: rules, loader: loader, log: log,
            decoderLimits: decoder, serverName: "mediacache", maxRequestBody: limits.maxRequestBody,
            timeouts: .init(idle: limits.idleTimeout, request: limits.requestTimeout, send: limits.sendTimeout),
            slots: ConnectionSlots(limit: limits.maxConnections))
        return ProxyListener(
            connections: connections, host: configuration.host, port: configuration.port,
            eventLoopGroup: Self.connectionLoops, onListening: onListening,
            logger: Logger(label: "mediacache.server"))
    }

    /// The event loops of the proxies' client connections, on which each request's task runs
    /// (``ProxyChannel``): a group of their own, so that a response's work never waits
    /// behind other work on NIO's shared loops (the test suites' origins run there), nor theirs
    /// behind it. `mediacache serve` runs its origin's connections on them too
    /// (`HTTPOrigin(eventLoopGroup:)`): a miss's request is then made on its connection's loop.
    package static let connectionLoops = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
}

/// Why the proxy refuses to start, or stopped listening.
///
/// ```swift
/// do {
///     server = try ProxyServer(engine: engine, configuration: configuration)
///     try await server.run()
/// } catch let error as ProxyServerError where error.code == .portInUse {
///     print(error)   // port 8080 on 127.0.0.1 is in use by another process; choose another …
/// }
/// ```
public struct ProxyServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<ProxyServerError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The address the proxy was to listen on.
    public let host: String
    /// The port, when the failure concerns one.
    public let port: Int?

    private init(_ code: Code, _ message: String, host: String, port: Int? = nil) {
        self.code = code
        self.message = message
        self.host = host
        self.port = port
    }

    /// The address is reachable from other machines and no token was set.
    public static func openRelay(host: String) -> Self {
        Self(
            .openRelay,
            "refusing to listen on \(host) without a token: the proxy fetches any URL it is given, so beyond loopback it needs --token",
            host: host)
    }

    /// The token is shorter than 8 characters or has characters other than letters, digits
    /// and `-._~`.
    public static func invalidToken(host: String) -> Self { Self(.invalidToken, ProxyAccess.tokenRule, host: host) }

    /// Another process listens on the port.
    public static func portInUse(host: String, port: Int) -> Self {
        Self(
            .portInUse, "port \(port) on \(host) is in use by another process; choose another with --port, or --port 0 for a free one",
            host: host, port: port)
    }

    /// The address cannot be listened on, for the reason given.
    public static func cannotListen(host: String, port: Int, reason: String) -> Self {
        Self(.cannotListen, "cannot listen on \(host):\(port): \(reason)", host: host, port: port)
    }

    /// The listening socket closed while the server ran (iOS reclaims those of suspended apps).
    public static func listenerClosed(host: String, port: Int) -> Self {
        Self(.listenerClosed, "the listening socket on \(host):\(port) was closed by the system", host: host, port: port)
    }

    /// `error` as a precise reason when it is a failure to bind `configuration`'s address;
    /// otherwise the server stopped for a reason of its own, which is passed on as it is.
    static func make(_ error: any Error, configuration: ProxyServer.Configuration) -> any Error {
        guard let failure = error as? NIOCore.IOError else { return error }
        if failure.errnoCode == EADDRINUSE { return ProxyServerError.portInUse(host: configuration.host, port: configuration.port) }
        return ProxyServerError.cannotListen(
            host: configuration.host, port: configuration.port,
            reason: String(cString: strerror(failure.errnoCode)))
    }

    public var description: String { message }
}

extension ErrorCode where Owner == ProxyServerError {
    /// The address is reachable from other machines and no token was set.
    public static var openRelay: Self { Self("openRelay") }
    /// The token is too short or has characters it may not have.
    public static var invalidToken: Self { Self("invalidToken") }
    /// Another process listens on the port.
    public static var portInUse: Self { Self("portInUse") }
    /// The address cannot be listened on.
    public static var cannotListen: Self { Self("cannotListen") }
    /// The listening socket closed while the server ran.
    public static var listenerClosed: Self { Self("listenerClosed") }
}

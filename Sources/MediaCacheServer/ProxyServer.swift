import Foundation
import Hummingbird
import Logging
import MediaCache

/// The local caching proxy: any player plays `http://HOST:PORT/<scheme>/<host>/<path>` through
/// the cache (see ``ProxyURL``).
///
/// ```swift
/// let server = try ProxyServer(loader: loader, configuration: .init(host: "127.0.0.1", port: 8080))
/// try await server.run()      // until SIGINT or SIGTERM
/// ```
public struct ProxyServer: Sendable {
    /// Where the server listens.
    public struct Configuration: Sendable {
        /// The address to bind. Default: 127.0.0.1 (loopback only).
        public var host = "127.0.0.1"
        /// The port to bind; 0 picks a free one. Default: 8080.
        public var port = 8080

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: Int = 8080) {
            self.host = host
            self.port = port
        }

        /// Whether the address is reachable from this machine only.
        public var isLoopback: Bool {
            host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
        }
    }

    /// The loader every request reads through.
    public let loader: MediaLoader
    /// Where the server listens.
    public let configuration: Configuration

    /// Creates a server.
    ///
    /// - Throws: ``ProxyServerError/openRelay(host:)`` for an address beyond loopback: the proxy
    ///   fetches any URL it is given, so it must not be reachable from other machines.
    public init(loader: MediaLoader, configuration: Configuration) throws(ProxyServerError) {
        guard configuration.isLoopback else { throw .openRelay(host: configuration.host) }
        self.loader = loader
        self.configuration = configuration
    }

    /// Serves until SIGINT or SIGTERM, or, with `handlingSignals` false (an embedded proxy),
    /// until the calling task is cancelled. `onListening` gets the bound port once it runs.
    public func run(handlingSignals: Bool = true, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(onListening: onListening)
            .runService(gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [])
    }

    private func application(onListening: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let proxy = ProxyResponder(loader: loader)
        let urls = configuration
        let router = Router()
        router.get("/api/url") { request, _ -> Response in
            guard let text = request.uri.queryParameters["u"].map(String.init), let origin = URL(string: text),
                  let proxied = ProxyURL(host: urls.host, port: urls.port).url(for: origin) else {
                return ProxyResponder.text(.badRequest, "pass an http or https URL as ?u=\n")
            }
            return ProxyResponder.text(.ok, proxied.absoluteString + "\n")
        }
        router.get("/**") { request, _ in await proxy.respond(to: request) }
        router.head("/**") { request, _ in await proxy.respond(to: request) }
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "mediacache"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "mediacache.server"))
    }
}

/// Why the proxy refuses to start.
public enum ProxyServerError: Error, CustomStringConvertible {
    /// The address is reachable from other machines.
    case openRelay(host: String)

    public var description: String {
        switch self {
        case .openRelay(let host):
            "refusing to listen on \(host): the proxy fetches any URL it is given, so it listens on loopback only"
        }
    }
}

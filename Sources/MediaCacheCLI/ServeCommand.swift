import ArgumentParser
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheServer
import Prometheus

/// `mediacache serve`: the loopback caching proxy that players play through.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the local caching proxy that players play through.")

    @Option(help: "The address to listen on; beyond loopback only with --token.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port to listen on, 0 to 65535; 0 picks a free one.", transform: CheckedOptions.port)
    var port = 8080

    @OptionGroup var cache: CacheDirectoryOptions

    @Option(
        name: .customLong("max-size"), parsing: .unconditional,
        help: ArgumentHelp("Evict beyond this size, 1 B to 1 PiB, e.g. 500M or 2G. (default: \(ByteSize.gibibyte))", valueName: "size"),
        transform: CheckedOptions.size("--max-size"))
    var maxSize: ByteSize = .gibibyte

    @Option(
        name: .customLong("max-age"), parsing: .unconditional,
        help: ArgumentHelp("Evict what was not used for this long, 1s to 36500d, e.g. 12h or 30d.", valueName: "duration"),
        transform: CheckedOptions.age)
    var maxAge: Duration?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "Fetch only from these origin hosts (host or host:port); repeat or separate with commas. `*.example.com` allows subdomains.",
            valueName: "host"))
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "Let the scripts of pages from this web origin (https://app.example) read answers, as a JavaScript player does; "
                + "repeat or separate with commas. Pages of other origins cannot.", valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: "A secret every request must carry (header or /t/<token>/ URLs); needed beyond loopback.")
    var token: String?

    @Option(
        name: .customLong("ignore-query"),
        help: ArgumentHelp(
            "Leave this query parameter out of cache keys (a CDN's signature or expiry); repeat or separate with commas.",
            valueName: "name"))
    var ignoredQueryItems: [String] = []

    @Option(
        name: .customLong("shutdown-grace"), parsing: .unconditional,
        help: ArgumentHelp(
            "On SIGINT or SIGTERM, give responses in progress this many seconds (0 to 3600) before closing them; "
                + "a second signal closes them at once. (default: 2)", valueName: "seconds"),
        transform: CheckedOptions.gracePeriod)
    var shutdownGrace: Double = 2

    @Option(
        name: .customLong("playlist-max-age"), parsing: .unconditional,
        help: ArgumentHelp(
            "Serve a cached VOD or multivariant HLS playlist this many seconds (0 to 86400) before asking the origin "
                + "whether it changed; live playlists are asked every half target duration. (default: 60)", valueName: "seconds"),
        transform: CheckedOptions.playlistAge)
    var playlistMaxAge: Double = 60

    @Option(
        name: .customLong("live-outage"), parsing: .unconditional,
        help: ArgumentHelp(
            "While a live playlist's origin fails, serve its last copy for this many target durations (1 to 1000), "
                + "then answer 504 so that players end the stream. (default: 3)", valueName: "count"),
        transform: CheckedOptions.liveOutage)
    var liveOutage = 3

    @Option(
        name: .customLong("max-connections"), parsing: .unconditional,
        help: ArgumentHelp(
            "Answer connections beyond this many open at once (1 to 1000000) with 503. (default: 1024)", valueName: "count"),
        transform: CheckedOptions.connections)
    var maxConnections = 1024

    @Option(
        name: .customLong("idle-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection with no request in progress after this many seconds (above 0 up to 86400). (default: 60)",
            valueName: "seconds"), transform: CheckedOptions.timeout("--idle-timeout"))
    var idleTimeout: Double = 60

    @Option(
        name: .customLong("request-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection whose request has not arrived whole this many seconds (above 0 up to 86400) after its "
                + "first byte. (default: 10)", valueName: "seconds"), transform: CheckedOptions.timeout("--request-timeout"))
    var requestTimeout: Double = 10

    @Option(
        name: .customLong("send-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection whose client took no response bytes for this many seconds (above 0 up to 86400). "
                + "(default: 60)", valueName: "seconds"), transform: CheckedOptions.timeout("--send-timeout"))
    var sendTimeout: Double = 60

    @Flag(inversion: .prefixedNo, help: "Write access.log (W3C extended format) in the log directory.")
    var accessLog = true

    @Flag(inversion: .prefixedNo, help: "Write error.log (W3C extended format) in the log directory.")
    var errorLog = true

    @Option(
        name: .customLong("log-dir"),
        help: ArgumentHelp(
            "Write the logs in this directory, such as one off a small cache partition, so that a full cache disk "
                + "cannot silence them. (default: the cache directory)", valueName: "path"))
    var logDirectory: String?

    /// The allow-list the options give, `nil` when none was given.
    func allowList() throws -> HostAllowList? {
        try Self.list(allowedHosts, option: "--allow-host") { try HostAllowList($0) }
    }

    /// The CORS allow-list the options give, `nil` when none was given.
    func corsAllowList() throws -> CORSAllowList? {
        try Self.list(corsOrigins, option: "--cors-origin") { try CORSAllowList($0) }
    }

    /// What `make` builds of the values given as `option`, `nil` when none was given; its error
    /// names the option.
    private static func list<List>(_ values: [String], option: String, _ make: ([String]) throws -> List) throws -> List? {
        guard !values.isEmpty else { return nil }
        do {
            return try make(commaSeparated(values))
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }

    /// The query parameters left out of cache keys.
    var ignoredQueryNames: Set<String> {
        Set(Self.commaSeparated(ignoredQueryItems))
    }

    /// The values of a repeatable option that also takes comma-separated lists; empty items
    /// are kept, for validation to refuse.
    static func commaSeparated(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func validate() throws {
        _ = try allowList()
        _ = try corsAllowList()
        if ignoredQueryNames.contains(where: { $0.isEmpty || $0.contains("=") || $0.contains("&") }) {
            throw ValidationError("--ignore-query: give query parameter names, such as token or Expires")
        }
        if let directive = ignoredQueryNames.first(where: { $0.hasPrefix("_HLS_") }) {
            throw ValidationError(
                "--ignore-query: \(directive) is an LL-HLS delivery directive, which names another playlist; "
                    + "it is never left out of cache keys")
        }
        if let token, !ProxyAccess.isValidToken(token) { throw ValidationError("--token: \(ProxyAccess.tokenRule)") }
    }

    func run() async throws {
        var storage = MediaStore.Configuration()
        storage.encryption = try cache.encryption()
        storage.eviction = EvictionPolicy([.totalBytes(maxSize.bytes)] + (maxAge.map { [.age($0)] } ?? []))
        if !ignoredQueryNames.isEmpty { storage.keyNormalizer = .droppingQueryItems(ignoredQueryNames) }
        let registry = PrometheusCollectorRegistry()
        var loading = MediaLoader.Configuration()
        loading.metricsFactory = PrometheusMetricsFactory(registry: registry)
        var configuration = ProxyServer.Configuration(host: host, port: port)
        configuration.token = token
        configuration.metrics = registry
        let logs = logDirectory ?? cache.directory
        if let logDirectory {
            do {
                try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
            } catch {
                throw ValidationError("--log-dir: cannot create \(logDirectory): \(error.localizedDescription)")
            }
        }
        configuration.accessLog = accessLog ? logs + "/access.log" : nil
        configuration.errorLog = errorLog ? logs + "/error.log" : nil
        configuration.allowedHosts = try allowList()
        configuration.cors = try corsAllowList()
        configuration.shutdownGracePeriod = .milliseconds(Int64(shutdownGrace * 1_000))
        configuration.limits.maxConnections = maxConnections
        configuration.limits.idleTimeout = .milliseconds(Int64(idleTimeout * 1_000))
        configuration.limits.requestTimeout = .milliseconds(Int64(requestTimeout * 1_000))
        configuration.limits.sendTimeout = .milliseconds(Int64(sendTimeout * 1_000))
        var engineConfiguration = CacheEngine.Configuration()
        engineConfiguration.loader = loading
        engineConfiguration.playlistFreshness = PlaylistFreshness(
            staticMaximumAge: .milliseconds(Int64(playlistMaxAge * 1_000)),
            liveOutageTargetDurations: liveOutage)

        let store = try MediaStore.open(at: cache.directory, configuration: storage)
        if let encryption = storage.encryption {
            Output.line("mediacache: the cache is encrypted at rest (key \(encryption.keyIdentifier)) in \(store.directory)")
        }
        // The origin's connections share the client connections' loops: a miss is asked and
        // answered on one thread, with no hand-over between threads.
        let origin = HTTPOrigin(eventLoopGroup: ProxyServer.connectionLoops)
        let directory = cache.directory
        let engine = CacheEngine(owning: store, origin: origin, configuration: engineConfiguration)
        do {
            let server = try ProxyServer(engine: engine, configuration: configuration)
            try await server.run { [configuration] port in
                var listening = configuration
                listening.port = port
                Self.announce(listening, directory: directory)
            }
        } catch {
            ServerAnnouncement.remove(in: directory)
            try? await engine.shutdown()
            try? await origin.shutdown()
            throw error
        }
        ServerAnnouncement.remove(in: directory)
        try await engine.shutdown()
        try await origin.shutdown()
        Output.line("mediacache: stopped; the cache index is flushed")
    }

    private static func announce(_ configuration: ProxyServer.Configuration, directory: String) {
        let urls = configuration.urls
        do {
            try ServerAnnouncement(pid: getpid(), url: urls.root, token: configuration.token).write(in: directory)
        } catch {
            Output.error(
                "mediacache: could not write \(ServerAnnouncement.path(in: directory)) (\(error)); "
                    + "other mediacache commands will not find this server")
        }
        Output.line("mediacache: caching proxy on \(urls.root.absoluteString) with the cache in \(directory)")
        for log in [configuration.accessLog, configuration.errorLog].compactMap({ $0 }) {
            Output.line("mediacache: logging to \(log)")
        }
        Output.line("mediacache: status page \(urls.root.absoluteString)")
        Output.line("mediacache: play \(urls.root.absoluteString)https/<host>/<path>, or get it from `mediacache url URL`")
    }
}

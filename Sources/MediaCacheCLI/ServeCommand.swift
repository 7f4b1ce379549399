import ArgumentParser
import Foundation
import MediaCache
import MediaCacheHTTP
import MediaCacheServer
import Prometheus

/// `mediacache serve`: the loopback caching proxy that players play through.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the local caching proxy that players play through.")

    @Option(help: "The address to listen on; beyond loopback only with --token.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @OptionGroup var cache: CacheDirectoryOptions

    @Option(name: .customLong("max-size"), help: ArgumentHelp("Evict beyond this size, e.g. 500M or 2G.", valueName: "size"))
    var maxSize: ByteCount?

    @Option(name: .customLong("max-age"), help: ArgumentHelp("Evict what was not used for this long, e.g. 12h or 30d.", valueName: "duration"))
    var maxAge: Age?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "Fetch only from these origin hosts; repeat or separate with commas. `*.example.com` allows subdomains.",
        valueName: "host"))
    var allowedHosts: [String] = []

    @Option(help: "A secret every request must carry (header or /t/<token>/ URLs); needed beyond loopback.")
    var token: String?

    @Flag(inversion: .prefixedNo, help: "Write access.log (W3C extended format) in the cache directory.")
    var accessLog = true

    @Flag(inversion: .prefixedNo, help: "Write error.log (W3C extended format) in the cache directory.")
    var errorLog = true

    func run() async throws {
        var storage = StoreConfiguration()
        storage.eviction = EvictionPolicy([maxSize.map { .totalBytes($0.bytes) } ?? .totalBytes(1 << 30)]
            + (maxAge.map { [.age($0.duration)] } ?? []))
        let registry = PrometheusCollectorRegistry()
        var loading = LoaderConfiguration()
        loading.metricsFactory = PrometheusMetricsFactory(registry: registry)
        var configuration = ProxyServer.Configuration(host: host, port: port)
        configuration.token = token
        configuration.metrics = registry
        configuration.accessLog = accessLog ? cache.directory + "/access.log" : nil
        configuration.errorLog = errorLog ? cache.directory + "/error.log" : nil
        let hosts = allowedHosts.flatMap { $0.split(separator: ",").map(String.init) }
        if !hosts.isEmpty { configuration.allowedHosts = HostAllowList(hosts) }

        let store = try MediaStore.open(at: cache.directory, configuration: storage)
        let origin = HTTPOrigin()
        let directory = cache.directory
        do {
            let server = try ProxyServer(loader: MediaLoader(store: store, origin: origin, configuration: loading),
                                         configuration: configuration)
            try await server.run { [configuration] port in
                var listening = configuration
                listening.port = port
                Self.announce(listening, directory: directory)
            }
        } catch {
            ServerAnnouncement.remove(in: directory)
            try? await origin.shutdown()
            try? store.close()
            throw error
        }
        ServerAnnouncement.remove(in: directory)
        try await origin.shutdown()
        try store.close()
        Output.line("mediacache: stopped; the cache index is flushed")
    }

    private static func announce(_ configuration: ProxyServer.Configuration, directory: String) {
        let urls = configuration.urls
        do {
            try ServerAnnouncement(pid: getpid(), url: urls.root, token: configuration.token).write(in: directory)
        } catch {
            Output.line("mediacache: could not write \(ServerAnnouncement.path(in: directory)) (\(error)); "
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

/// A size such as `500M`, `2G` or `1048576`.
struct ByteCount: ExpressibleByArgument {
    let bytes: Int64

    init?(argument: String) {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        let text = argument.uppercased().replacingOccurrences(of: "IB", with: "").replacingOccurrences(of: "B", with: "")
        if let unit = text.last.flatMap({ units[$0] }), let value = Double(text.dropLast()), value > 0 {
            bytes = Int64(value * Double(unit))
        } else if let value = Int64(text), value > 0 {
            bytes = value
        } else {
            return nil
        }
    }
}

/// A duration such as `90s`, `30m`, `12h` or `7d`.
struct Age: ExpressibleByArgument {
    let duration: Duration

    init?(argument: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = argument.last.flatMap({ units[$0] }), let value = Int64(argument.dropLast()), value > 0 else {
            return nil
        }
        duration = .seconds(value * unit)
    }
}

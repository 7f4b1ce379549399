import ArgumentParser
import Foundation
import MediaCache
import MediaCacheHTTP
import MediaCacheServer

/// `mediacache serve`: the loopback caching proxy that players play through.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the local caching proxy that players play through.")

    @Option(help: "The address to listen on (loopback only).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @OptionGroup var cache: CacheDirectoryOptions

    @Option(name: .customLong("max-size"), help: ArgumentHelp("Evict beyond this size, e.g. 500M or 2G.", valueName: "size"))
    var maxSize: ByteCount?

    @Option(name: .customLong("max-age"), help: ArgumentHelp("Evict what was not used for this long, e.g. 12h or 30d.", valueName: "duration"))
    var maxAge: Age?

    func run() async throws {
        var configuration = StoreConfiguration()
        configuration.eviction = EvictionPolicy([maxSize.map { .totalBytes($0.bytes) } ?? .totalBytes(1 << 30)]
            + (maxAge.map { [.age($0.duration)] } ?? []))
        let store = try MediaStore.open(at: cache.directory, configuration: configuration)
        let origin = HTTPOrigin()
        let server = try ProxyServer(loader: MediaLoader(store: store, origin: origin),
                                     configuration: .init(host: host, port: port))
        let directory = cache.directory
        let host = host
        do {
            try await server.run { port in
                Output.line("mediacache: caching proxy on http://\(host):\(port)/ with the cache in \(directory)")
                Output.line("mediacache: play http://\(host):\(port)/https/<host>/<path>, or get it from `mediacache url URL`")
            }
        } catch {
            try? await origin.shutdown()
            try? store.close()
            throw error
        }
        try await origin.shutdown()
        try store.close()
        Output.line("mediacache: stopped; the cache index is flushed")
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

import ArgumentParser
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer

/// `mediacache url`: the proxy URL that plays an origin URL through the cache, on the server
/// that runs for the cache directory (or the address given).
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url", abstract: "Print the proxy URL that plays an origin URL through the cache.",
        discussion: "The address and token are the running server's (read from server.json in the cache directory); "
            + "without a running server, 127.0.0.1:8080 unless --host and --port say otherwise.")

    @Argument(help: "The origin URL (http or https, without credentials).")
    var origin: String

    @Option(help: "The proxy's host, instead of the running server's.")
    var host: String?

    @Option(parsing: .unconditional, help: "The proxy's port, instead of the running server's.", transform: CheckedOptions.port)
    var port: Int?

    @Option(help: "The proxy's token, instead of the running server's.")
    var token: String?

    @OptionGroup var cache: CacheDirectoryOptions

    func validate() throws {
        do {
            try OriginURL.check(origin)
        } catch {
            throw ValidationError("\(error)")
        }
        if let token, !ProxyAccess.isValidToken(token) { throw ValidationError("--token: \(ProxyAccess.tokenRule)") }
    }

    func run() throws {
        let running = ServerAnnouncement.read(in: cache.directory)
        var proxy =
            running.flatMap { announcement in
                announcement.url.host.map { ProxyURL(host: $0, port: announcement.url.port ?? 80, token: announcement.token) }
            } ?? ProxyURL(host: "127.0.0.1", port: 8080)
        if let host { proxy.host = host }
        if let port { proxy.port = port }
        if let token { proxy.token = token }
        guard let url = URL(string: origin), let proxied = proxy.url(for: url) else {
            throw ValidationError("\(origin) has no proxy URL")
        }
        print(proxied.absoluteString)
    }
}

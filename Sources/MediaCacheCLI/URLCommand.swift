import ArgumentParser
import Foundation
import MediaCacheServer

/// `mediacache url`: the proxy URL that plays an origin URL through the cache.
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url", abstract: "Print the proxy URL that plays an origin URL through the cache.")

    @Argument(help: "The origin URL (http or https).")
    var origin: String

    @Option(help: "The proxy's host.")
    var host = "127.0.0.1"

    @Option(help: "The proxy's port.")
    var port = 8080

    @Option(help: "The proxy's token, when it was started with one.")
    var token: String?

    func run() throws {
        guard let url = URL(string: origin), let proxied = ProxyURL(host: host, port: port, token: token).url(for: url) else {
            throw ValidationError("\(origin) is not an http or https URL without credentials")
        }
        print(proxied.absoluteString)
    }
}

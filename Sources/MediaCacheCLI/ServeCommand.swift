import ArgumentParser
import Foundation

/// `mediacache serve`: the loopback caching proxy (not built yet; see the README).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the local caching proxy that players play through.")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @OptionGroup var cache: CacheDirectoryOptions

    func run() throws {
        let message = """
            mediacache serve: the caching proxy is not available in this version yet.
            When it is, it will listen on http://\(host):\(port)/ and cache into \(cache.directory).
            Until then use `mediacache ls`, `rm`, `clear` and `stats` to manage that cache.

            """
        FileHandle.standardError.write(Data(message.utf8))
        throw ExitCode(69)
    }
}

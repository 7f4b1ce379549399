import ArgumentParser
import MediaCache

/// `mediacache rm`: removes one resource, named by its URL or its key.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a cached resource.")

    @Argument(help: ArgumentHelp("The resource's URL or cache key.", valueName: "url-or-key"))
    var resource: String

    @OptionGroup var cache: CacheDirectoryOptions

    func run() async throws {
        let key = try await cache.withCache { try await $0.removeEntry(named: resource) }
        print("removed \(key)")
    }
}

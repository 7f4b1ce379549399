import ArgumentParser
import MediaCache

/// `mediacache rm`: removes one resource, named by its URL or its key.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a cached resource, or an HLS asset with all its resources.")

    @Argument(help: ArgumentHelp("The resource's URL or cache key (for an HLS asset, its playlist's).", valueName: "url-or-key"))
    var resource: String

    @OptionGroup var cache: CacheDirectoryOptions

    func run() async throws {
        let keys = try await cache.withCache { try await $0.removeEntry(named: resource) }
        if keys.count > 1 {
            print("removed \(keys[0]) and the \(keys.count - 1) other resources of its asset")
        } else {
            print("removed \(keys.first?.rawValue ?? resource)")
        }
    }
}

import ArgumentParser
import MediaCache

/// `mediacache pin`: keeps a cached resource out of eviction, as an offline download is.
struct PinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "Keep a cached resource out of eviction (see `unpin`).")

    @Argument(help: ArgumentHelp("The resource's URL or cache key.", valueName: "url-or-key"))
    var resource: String

    @OptionGroup var cache: CacheDirectoryOptions

    func run() async throws {
        let key = try await cache.withCache { try await $0.setPinned(true, named: resource) }
        print("pinned \(key)")
    }
}

/// `mediacache unpin`: lets a pinned resource be evicted again.
struct UnpinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpin", abstract: "Let a pinned resource be evicted again.")

    @Argument(help: ArgumentHelp("The resource's URL or cache key.", valueName: "url-or-key"))
    var resource: String

    @OptionGroup var cache: CacheDirectoryOptions

    func run() async throws {
        let key = try await cache.withCache { try await $0.setPinned(false, named: resource) }
        print("unpinned \(key)")
    }
}

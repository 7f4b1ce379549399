import ArgumentParser
import MediaCache

/// `mediacache pin`: keeps a cached resource out of eviction, as an offline download is.
struct PinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "Keep a cached resource out of eviction (see `unpin`).")

    @OptionGroup var entry: PinnedEntryOptions

    func run() async throws {
        try await entry.setPinned(true)
    }
}

/// `mediacache unpin`: lets a pinned resource be evicted again.
struct UnpinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpin", abstract: "Let a pinned resource be evicted again.")

    @OptionGroup var entry: PinnedEntryOptions

    func run() async throws {
        try await entry.setPinned(false)
    }
}

/// The resource `pin` and `unpin` name, and the change itself.
struct PinnedEntryOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The resource's URL or cache key.", valueName: "url-or-key"))
    var resource: String

    @OptionGroup var cache: CacheDirectoryOptions

    /// Pins or unpins the resource, through the running server when there is one, and says so.
    func setPinned(_ pinned: Bool) async throws {
        let key = try await cache.withCache { try await $0.setPinned(pinned, named: resource) }
        print("\(pinned ? "pinned" : "unpinned") \(key)")
    }
}

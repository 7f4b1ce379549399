import ArgumentParser
import MediaCache

/// `mediacache clear`: removes every cached resource (pinned offline assets only on request).
struct ClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every cached resource except pinned offline assets.")

    @Flag(help: "Remove pinned offline assets too.")
    var includingPinned = false

    @OptionGroup var cache: CacheDirectoryOptions

    func run() async throws {
        let count = try await cache.withCache { try await $0.removeEntries(includingPinned: includingPinned).count }
        print("removed \(count) resource\(count == 1 ? "" : "s")")
    }
}

import ArgumentParser
import MediaCache

/// `mediacache clear`: removes every cached resource (pinned offline assets only on request).
struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every cached resource except pinned offline assets.")

    @Flag(help: "Remove pinned offline assets too.")
    var includingPinned = false

    @OptionGroup var cache: CacheDirectoryOptions

    func run() throws {
        let count = try cache.withStore { try $0.removeAll(includingPinned: includingPinned) }
        print("removed \(count) resource\(count == 1 ? "" : "s")")
    }
}

import ArgumentParser
import Foundation
import MediaCache

/// `mediacache ls`: every cached resource with how much of it is cached.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List cached resources.")

    @OptionGroup var cache: CacheDirectoryOptions

    @Flag(help: "Print a JSON array of entries.")
    var json = false

    func run() throws {
        let entries = try cache.withStore { try $0.entries() }
        if json {
            print(try Output.json(entries))
            return
        }
        guard !entries.isEmpty else {
            print("The cache at \(cache.directory) is empty.")
            return
        }
        let rows = entries.map { entry in
            [
                Output.bytes(entry.cachedBytes),
                entry.totalLength.map(Output.bytes) ?? "?",
                entry.percentCached.map { String(format: "%.0f%%", $0) } ?? "-",
                entry.isPinned ? "pinned" : "",
                Output.date(entry.lastAccess),
                entry.url,
            ]
        }
        print(Output.table(header: ["CACHED", "LENGTH", "%", "PIN", "LAST ACCESS", "URL"], rows: rows))
    }
}

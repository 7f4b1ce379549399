import ArgumentParser
import Foundation
import MediaCache

/// `mediacache ls`: every cached resource with how much of it is cached.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List cached resources.")

    @OptionGroup var cache: CacheDirectoryOptions

    @Flag(help: "Print a JSON array of entries with their cached ranges.")
    var json = false

    func run() async throws {
        let reports = try await cache.withCache(readingOnly: true) { try await $0.entryReports() }
        if json {
            print(try Output.json(reports))
            return
        }
        guard !reports.isEmpty else {
            print("The cache at \(cache.directory) is empty.")
            return
        }
        let rows = reports.map(\.entry).map { entry in
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

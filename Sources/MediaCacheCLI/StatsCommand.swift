import ArgumentParser
import Foundation
import MediaCache

/// `mediacache stats`: totals for the cache, and what a running server has served.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show cache totals.")

    @OptionGroup var cache: CacheDirectoryOptions

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() async throws {
        let report = try await cache.withCache { try await $0.statsReport() }
        if json {
            print(try Output.json(report))
            return
        }
        let usage = report.usage
        var rows = [
            ["directory", report.directory],
            ["resources", "\(usage.entryCount)"],
            ["cached", Output.bytes(usage.cachedBytes)],
            ["pinned", "\(usage.pinnedCount) (\(Output.bytes(usage.pinnedBytes)))"],
        ]
        if let statistics = report.statistics {
            rows += [
                ["hit ratio", statistics.hitRatio.map { String(format: "%.1f%%", $0 * 100) } ?? "-"],
                ["served", Output.bytes(statistics.bytesServed)],
                ["saved", Output.bytes(statistics.bytesSaved)],
                ["from origin", Output.bytes(statistics.bytesFromOrigin)],
            ]
        }
        print(Output.table(header: nil, rows: rows))
    }
}

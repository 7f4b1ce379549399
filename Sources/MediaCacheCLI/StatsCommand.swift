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
        let report = try await cache.withCache(readingOnly: true) { try await $0.statsReport() }
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
                ["preloaded", Output.bytes(statistics.bytesPreloaded)],
                ["  played", Output.bytes(statistics.bytesPreloadedPlayed)],
                ["  unplayed", Output.bytes(statistics.bytesPreloadedUnplayed)],
            ]
        }
        print(Output.table(header: nil, rows: rows))
        guard !report.resources.isEmpty else { return }
        print("")
        let resources = report.resources.sorted {
            $0.value.bytesServed + $0.value.bytesPreloaded > $1.value.bytesServed + $1.value.bytesPreloaded
        }
        print(
            Output.table(
                header: ["resource", "hit ratio", "served", "from origin", "preloaded", "played"],
                rows: resources.map { key, stats in
                    [
                        key, stats.hitRatio.map { String(format: "%.1f%%", $0 * 100) } ?? "-", Output.bytes(stats.bytesServed),
                        Output.bytes(stats.bytesFromOrigin), Output.bytes(stats.bytesPreloaded), Output.bytes(stats.bytesPreloadedPlayed),
                    ]
                }))
    }
}

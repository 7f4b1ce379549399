import ArgumentParser
import MediaCache

/// `mediacache stats`: totals for the cache.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show cache totals.")

    @OptionGroup var cache: CacheDirectoryOptions

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() throws {
        let usage = try cache.withStore { try $0.usage() }
        if json {
            print(try Output.json(usage))
            return
        }
        print(Output.table(header: nil, rows: [
            ["directory", cache.directory],
            ["resources", "\(usage.entryCount)"],
            ["cached", Output.bytes(usage.cachedBytes)],
            ["pinned", "\(usage.pinnedCount) (\(Output.bytes(usage.pinnedBytes)))"],
        ]))
    }
}

import ArgumentParser
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer

/// `mediacache ls`: every cached resource with how much of it is cached; an HLS asset as one
/// entry with the seconds cached of each variant and rendition.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List cached resources and HLS assets.")

    @OptionGroup var cache: CacheDirectoryOptions

    @Flag(help: "Print a JSON array of entries with their cached ranges.")
    var json = false

    @Flag(help: "List the resources of each HLS asset too.")
    var members = false

    func run() async throws {
        let reports = try await cache.withCache(readingOnly: true) { try await $0.entryReports(members: members) }
        if json {
            print(try Output.json(reports))
            return
        }
        guard !reports.isEmpty else {
            print("The cache at \(cache.directory) is empty.")
            return
        }
        let rows = reports.flatMap(Self.rows)
        print(Output.table(header: ["CACHED", "LENGTH", "%", "PIN", "LAST ACCESS", "URL"], rows: rows))
    }

    /// The row of one entry; for an asset, a row per playlist and, with members, per resource.
    static func rows(_ report: EntryReport) -> [[String]] {
        guard let asset = report.asset else { return [row(report.entry, indent: "")] }
        let head = [
            Output.bytes(asset.cachedBytes), "HLS", "", report.entry.isPinned ? "pinned" : "",
            Output.date(asset.lastAccess ?? report.entry.lastAccess), report.entry.url,
        ]
        let playlists = asset.playlists.map { playlist in
            let share = playlist.seconds > 0 ? String(format: "%.0f%%", playlist.cachedSeconds * 100 / playlist.seconds) : "-"
            let seconds = String(format: "%.0f of %.0f s", playlist.cachedSeconds, playlist.seconds)
            let label = playlist.name.isEmpty ? playlist.kind.rawValue : "\(playlist.kind.rawValue) \(playlist.name)"
            return [Output.bytes(playlist.cachedBytes), "", share, "", "", "  \(label): \(seconds)"]
        }
        let members = (asset.members ?? []).map { row($0.entry, indent: "    ") }
        return [head] + playlists + members
    }

    static func row(_ entry: StoreEntry, indent: String) -> [String] {
        [
            Output.bytes(entry.cachedBytes),
            entry.totalLength.map(Output.bytes) ?? "?",
            entry.percentCached.map { String(format: "%.0f%%", $0) } ?? "-",
            entry.isPinned ? "pinned" : "",
            Output.date(entry.lastAccess),
            indent + entry.url,
        ]
    }
}

import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// Runs the real `mediacache` binary against stores prepared in a directory of the test's own.
@Suite(.timeLimit(.minutes(2))) struct CLITests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func mediacache(_ arguments: String...) throws -> CommandRun {
        try CommandRun.run("mediacache", arguments + ["--cache-dir", directory.path])
    }

    /// Two resources: `a.mp4` half cached, `b.mp3` whole and pinned.
    func populate() throws {
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        let store = try MediaStore.open(at: directory.path, configuration: configuration)
        for (name, length, cached) in [("a.mp4", 1000, 500), ("b.mp3", 300, 300)] as [(String, Int64, Int64)] {
            let url = URL(string: "https://origin.test/\(name)")!
            let generation = try store.setContentInfo(ContentInfo(totalLength: length, mimeType: "video/mp4"), for: url)
            try store.write(Data(count: Int(cached)), at: 0, to: store.key(for: url), generation: generation)
        }
        try store.setPinned(true, for: ResourceKey("https://origin.test/b.mp3"))
        try store.close()
    }

    @Test func listingAnEmptyOrNewDirectoryPrintsAnEmptyJSONList() throws {
        defer { directory.remove() }
        let run = try CommandRun.run("mediacache", ["ls", "--json", "--cache-dir", directory.appending("new/cache")])
        #expect(run.status == 0)
        #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func listsEntriesAsJSONAndAsATable() throws {
        defer { directory.remove() }
        try populate()
        let json = try mediacache("ls", "--json")
        #expect(json.status == 0)
        let entries = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        let byURL = Dictionary(uniqueKeysWithValues: (entries ?? []).map { ($0["url"] as? String ?? "", $0) })
        #expect(byURL["https://origin.test/a.mp4"]?["cachedBytes"] as? Int == 500)
        #expect(byURL["https://origin.test/a.mp4"]?["percentCached"] as? Double == 50)
        #expect(byURL["https://origin.test/b.mp3"]?["isPinned"] as? Bool == true)

        let table = try mediacache("ls")
        #expect(table.status == 0)
        #expect(table.output.contains("50%"))
        #expect(table.output.contains("pinned"))
        #expect(table.output.contains("https://origin.test/a.mp4"))
    }

    @Test func anHLSAssetIsListedAsOneEntryWithItsPlaylistsAndRemovedWhole() throws {
        defer { directory.remove() }
        let store = try MediaStore.open(at: directory.path)
        let base = "https://origin.test/film/"
        try store.recordAsset(
            URL(string: base + "master.m3u8")!,
            playlists: [
                AssetPlaylist(url: URL(string: base + "hd.m3u8")!, kind: .variant, name: "1280x720 2.5 Mbit/s")
            ])
        try store.recordPlaylist(
            URL(string: base + "hd.m3u8")!, generation: .initial,
            members: (0..<3).map {
                AssetMember(url: URL(string: base + "s\($0).ts")!, role: .segment, duration: 4)
            })
        for name in ["master.m3u8", "hd.m3u8", "s0.ts", "s1.ts"] {
            let url = URL(string: base + name)!
            let generation = try store.setContentInfo(ContentInfo(totalLength: 100), for: url)
            try store.write(Data(count: 100), at: 0, to: store.key(for: url), generation: generation)
        }
        try store.close()

        let table = try mediacache("ls")
        #expect(table.status == 0, "\(table.errorOutput)")
        #expect(table.output.contains("HLS") && table.output.contains(base + "master.m3u8"))
        #expect(table.output.contains("variant 1280x720 2.5 Mbit/s: 8 of 12 s"), "\(table.output)")
        #expect(!table.output.contains("s0.ts"), "members only on request")
        #expect(try mediacache("ls", "--members").output.contains(base + "s0.ts"))

        let removal = try mediacache("rm", base + "master.m3u8")
        #expect(removal.output.contains("and the 3 other resources of its asset"), "\(removal.output)\(removal.errorOutput)")
        #expect(try mediacache("ls", "--json").output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func removesByURLOrKeyAndClearsAllButPinned() throws {
        defer { directory.remove() }
        try populate()
        #expect(try mediacache("rm", "https://origin.test/a.mp4").status == 0)
        let missing = try mediacache("rm", "https://origin.test/a.mp4")
        #expect(missing.status != 0)
        #expect(missing.errorOutput.contains("no cached resource"))

        try populate()
        let cleared = try mediacache("clear")
        #expect(cleared.output.contains("removed 1 resource"))
        let stats = try mediacache("stats", "--json")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(stats.output.utf8))
        #expect(report.usage.entryCount == 1)
        #expect(report.usage.pinnedBytes == 300)
        #expect(report.statistics == nil, "no server ran, so nothing was served")
        #expect(try mediacache("clear", "--including-pinned").output.contains("removed 1 resource"))
        #expect(try mediacache("ls", "--json").output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func aDirectoryOwnedByAnotherProcessIsNamedInTheError() throws {
        defer { directory.remove() }
        let store = try MediaStore.open(at: directory.path)
        defer { try? store.close() }
        let run = try mediacache("ls")
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("in use by process \(ProcessInfo.processInfo.processIdentifier)"))
    }
}

import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// Runs the real `mediacache` binary against stores prepared in a directory of the test's own.
@Suite struct CLITests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func mediacache(_ arguments: String...) throws -> CommandRun {
        try CommandRun.run("mediacache", arguments + ["--cache-dir", directory.path])
    }

    /// Two resources: `a.mp4` half cached, `b.mp3` whole and pinned.
    func populate() throws {
        var configuration = StoreConfiguration()
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
        let usage = try JSONDecoder().decode(StoreUsage.self, from: Data(stats.output.utf8))
        #expect(usage.entryCount == 1)
        #expect(usage.pinnedBytes == 300)
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

    @Test(.timeLimit(.minutes(2)))
    func serveProxiesThroughTheCacheAndFlushesTheIndexOnSIGINT() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let content = TestOrigin.Content.pattern(length: 300_000, seed: 3)
        origin.serve("/v/a.mp4", content: content)

        let server = Process()
        let output = Pipe()
        server.executableURL = BuiltProducts.executable(named: "mediacache")
        server.arguments = ["serve", "--port", "0", "--cache-dir", directory.path]
        server.standardOutput = output
        try server.run()
        var announced = ""
        while !announced.contains("\n"), server.isRunning {
            announced += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        let port = try #require(announced.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { String($0.1) })

        let proxied = try CommandRun.run("mediacache", ["url", origin.url("/v/a.mp4").absoluteString, "--port", port])
        let url = proxied.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url == "http://127.0.0.1:\(port)/http/127.0.0.1:\(origin.port)/v/a.mp4")
        let body = directory.appending("body")
        let curl = try await CommandRun.run(path: try Tools.require("curl"), ["-sf", "-o", body, url])
        #expect(curl.status == 0, "curl: \(curl.errorOutput)")
        #expect(FileManager.default.contents(atPath: body) == content.bytes(in: 0..<300_000))

        kill(server.processIdentifier, SIGINT)
        while server.isRunning { usleep(10_000) }
        #expect(server.terminationStatus == 0)
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("index is flushed"))
        try await origin.stop()

        let listing = try mediacache("ls", "--json")
        let entries = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]]
        #expect(entries?.first?["cachedBytes"] as? Int == 300_000)
    }
}

import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache preload` on its own store and through a running server, and what `stats` and
/// the logs say afterwards.
@Suite(.timeLimit(.minutes(2))) struct PreloadCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func mediacache(_ arguments: String...) async throws -> CommandRun {
        try await CommandRun.run(
            path: BuiltProducts.executable(named: "mediacache").path,
            arguments + ["--cache-dir", directory.path])
    }

    @Test func preloadsIntoItsOwnStoreWithPlainProgressLinesAndFailsForWhatCannotBeFetched() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        defer { Task { try await origin.stop() } }
        origin.serve("/a.bin", content: .pattern(length: 2 << 20, seed: 8))
        let run = try await mediacache("preload", origin.url("/a.bin").absoluteString, "--bytes", "256K")
        #expect(run.status == 0, "\(run.errorOutput)")
        // Progress is on standard error; standard output stays empty.
        #expect(run.output.isEmpty, "\(run.output)")
        let lines = run.errorOutput.split(separator: "\n")
        #expect(lines.last == "\(origin.url("/a.bin").absoluteString): finished 100% (256.0 KiB of 256.0 KiB, first bytes)")
        let listing = try await mediacache("ls", "--json")
        let entries = try APIJSON.decoder().decode([EntryReport].self, from: Data(listing.output.utf8))
        #expect(entries.map(\.cachedRanges) == [[ByteRange(0, 256 << 10)]])

        let missing = try await mediacache("preload", origin.url("/missing.mp4").absoluteString)
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("failed"))
        #expect(missing.errorOutput.contains("1 of 1 preloads did not finish"))
        let invalid = try await mediacache("preload", "ftp://example.com/x", "--seconds", "3")
        #expect(invalid.status != 0 && invalid.errorOutput.contains("not an http or https URL"))
        let both = try await mediacache("preload", origin.url("/a.bin").absoluteString, "--seconds", "3", "--full")
        #expect(both.status != 0 && both.errorOutput.contains("at most one of"))
    }

    @Test func preloadsThroughTheRunningServerWhoseStatsAndLogsShowIt() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        defer { Task { try await origin.stop() } }
        let media = try await TestMedia.faststartMP4(seconds: 20).make(in: directory.path)
        origin.serve("/clip.mp4", content: .data(media, mimeType: "video/mp4"))
        let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.path)
        defer { server.terminate() }
        #expect(server.banner.contains("logging to \(directory.path)/access.log"))

        let url = origin.url("/clip.mp4").absoluteString
        let run = try await mediacache("preload", url, "--seconds", "3")
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.errorOutput.contains("\(url): finished 100%"))
        #expect(run.errorOutput.contains("mp4 time index"))
        #expect(origin.bytesSent(for: "/clip.mp4") < Int64(media.count) / 3)

        let proxied = server.root + "http/127.0.0.1:\(origin.port)/clip.mp4"
        let fetch = try await CommandRun.run(path: try Tools.require("curl"), ["-s", "-o", "/dev/null", "-r", "0-65535", proxied])
        #expect(fetch.status == 0)
        let stats = try await mediacache("stats")
        #expect(stats.output.contains("preloaded"))
        #expect(stats.output.contains("resource"), "the per-resource table")
        #expect(stats.output.contains(url))
        let report = try APIJSON.decoder().decode(StatsReport.self, from: Data(try await mediacache("stats", "--json").output.utf8))
        #expect(report.statistics?.bytesPreloadedPlayed == 65_536)

        #expect(server.stop().status == 0)
        let access = try String(contentsOfFile: directory.appending("access.log"), encoding: .utf8)
        #expect(access.contains("#Fields: date time c-ip cs-method cs-uri sc-status sc-bytes x-cache-bytes x-origin-bytes time-taken"))
        #expect(access.contains(" POST /api/preload 200 "))
        #expect(access.contains(" GET /http/127.0.0.1:\(origin.port)/clip.mp4 206 65536 65536 0 "))
        #expect(FileManager.default.fileExists(atPath: directory.appending("error.log")))
    }
}

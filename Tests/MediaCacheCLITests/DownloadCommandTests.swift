import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache download` and `mediacache downloads`, as a user runs them: in the foreground on a
/// cache of their own, and through a running server.
@Suite(.timeLimit(.minutes(2))) struct DownloadCommandTests {
    func serveMultivariant(_ origin: TestOrigin, in directory: String) async throws -> [String: Data] {
        let files = try await TestHLS(.multivariant, seconds: 6).make(in: directory)
        for (path, data) in files { origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
        return files
    }

    func mediacache(_ arguments: [String]) async throws -> CommandRun {
        try await CommandRun.run(path: BuiltProducts.executable(named: "mediacache").path, arguments)
    }

    /// Runs `body` with a multivariant presentation on a test origin, its master playlist's
    /// URL, and the `--cache-dir` arguments of an empty cache.
    func withMultivariant(_ body: (_ master: String, _ cache: [String]) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        defer { Task { try? await origin.stop() } }
        _ = try await serveMultivariant(origin, in: directory.path)
        let cache = ["--cache-dir", directory.appending("cache")]
        let master = origin.url("/hls/master.m3u8").absoluteString
        try await body(master, cache)
    }

    @Test func aForegroundDownloadCompletesAndIsListedAndRemoved() async throws {
        try await withMultivariant { master, cache in

            let run = try await mediacache(
                ["download", master, "--title", "Film", "--audio", "de", "--variant", "lowest", "--json"] + cache)
            #expect(run.status == 0, "\(run.output)\(run.errorOutput)")
            #expect(
                run.errorOutput.hasPrefix("Film: ") && run.errorOutput.contains(" to store"),
                "the estimate comes first, with the progress, on standard error: \(run.errorOutput)")
            // Standard output is the JSON alone, for `jq` to read.
            let report = try APIJSON.decoder().decode(DownloadReport.self, from: Data(run.output.utf8))
            #expect(report.state == "completed" && report.playableOffline && report.title == "Film")
            #expect(report.selection.audio.map(\.language) == ["de"] && report.selection.variant?.resolution == "320x240")
            #expect(report.segmentsDone == report.segmentCount && report.expectedBytes == report.bytesOnDisk)

            let listed = try await mediacache(["downloads", "--json"] + cache)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]).first
            for field in [
                "id", "url", "title", "state", "bytesOnDisk", "expectedBytes", "expectedIsEstimate", "segmentsDone",
                "segmentCount", "loadedSeconds", "durationSeconds", "selection", "playableOffline",
            ] {
                #expect(object?[field] != nil, "downloads --json has \(field)")
            }
            #expect(try await mediacache(["downloads"] + cache).output.contains("completed"))
            let removed = try await mediacache(["downloads", "remove", report.id] + cache)
            #expect(removed.status == 0 && removed.output.contains("removed"), "\(removed.errorOutput)")
            #expect(try await mediacache(["downloads"] + cache).output.contains("No downloads."))
            #expect(
                try await mediacache(["ls", "--json"] + cache).output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]",
                "removing the download removed its bytes")
        }
    }

    @Test func aDownloadThroughTheRunningServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        defer { Task { try? await origin.stop() } }
        _ = try await serveMultivariant(origin, in: directory.path)
        let cacheDirectory = directory.appending("cache")
        let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: cacheDirectory, [])
        defer { server.terminate() }
        let master = origin.url("/hls/master.m3u8").absoluteString

        let queued = try await mediacache(["download", master, "--no-wait", "--cache-dir", cacheDirectory])
        #expect(queued.status == 0, "\(queued.errorOutput)")
        let id = queued.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 36)
        var state = ""
        for _ in 0..<200 where state != "completed" {
            let listed = try await mediacache(["downloads", "--json", "--cache-dir", cacheDirectory])
            state = (try APIJSON.decoder().decode([DownloadReport].self, from: Data(listed.output.utf8))).first?.state ?? ""
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(state == "completed")
        let refused = try await mediacache(["downloads", "pause", id, "--cache-dir", cacheDirectory])
        #expect(refused.status != 0 && refused.errorOutput.contains("cannot pause a download that is completed"), "\(refused.errorOutput)")
        #expect(server.stop().status == 0)
    }

    @Test func aSelectionThePresentationLacksIsRefusedWithWhatItHas() async throws {
        try await withMultivariant { master, cache in
            let run = try await mediacache(["download", master, "--audio", "fr", "--json"] + cache)
            #expect(run.status == 64, "\(run.output)\(run.errorOutput)")
            #expect(run.errorOutput.contains("the presentation has no audio in fr; it has: en, de"), "\(run.errorOutput)")
            #expect(run.output.isEmpty)
            let listed = try await mediacache(["downloads", "--json"] + cache)
            #expect(listed.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "nothing was queued")
        }
    }

    @Test func aBadSelectionIsRefusedBeforeAnythingRuns() async throws {
        let run = try await mediacache(["download", "http://127.0.0.1:9/a.m3u8", "--variant", "fast", "--cache-dir", "/tmp/unused"])
        #expect(run.status == 64 && run.errorOutput.contains("variant"), "\(run.errorOutput)")
    }
}

/// Ctrl-C on a foreground download pauses it; running the command again goes on.
@Suite(.timeLimit(.minutes(2))) struct DownloadInterruptTests {
    @Test func ctrlCPausesAndTheCommandAgainCompletes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        defer { Task { try? await origin.stop() } }
        let files = try await TestHLS(.ts, seconds: 20).make(in: directory.path)
        for (path, data) in files {
            origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
            origin.setMisbehavior(.init(bytesPerSecond: 30_000), for: "/hls/" + path)
        }
        let url = origin.url("/hls/index.m3u8").absoluteString
        let mediacache = BuiltProducts.executable(named: "mediacache").path
        let cache = ["--cache-dir", directory.appending("cache")]

        // Ctrl-C once the download has stored something, however slowly the machine starts it.
        // Progress and logs are on standard error.
        let download = try ChildProcess.spawn(
            path: mediacache, ["download", url] + cache, capturingOutput: false,
            capturingErrors: true)
        var output = ""
        while !output.contains("downloading: "), !output.contains("completed") {
            let chunk = download.readAvailable()
            if chunk.isEmpty { break }
            output += String(decoding: chunk, as: UTF8.self)
        }
        download.send(SIGINT)
        output += String(decoding: download.readToEnd(), as: UTF8.self)
        #expect(download.waitForExit() == 130, "\(output)")
        #expect(output.contains("paused; resume with: mediacache downloads resume"), "\(output)")
        #expect(!output.contains("retrying") && !output.contains("malformed"), "a pause is no origin failure: \(output)")
        let listed = try await CommandRun.run(path: mediacache, ["downloads", "--json"] + cache)
        let paused = try #require(try APIJSON.decoder().decode([DownloadReport].self, from: Data(listed.output.utf8)).first)
        #expect(paused.state == "paused" && paused.bytesOnDisk > 0 && paused.segmentsDone < paused.segmentCount, "\(paused)")

        let again = try await CommandRun.run(path: mediacache, ["download", url] + cache)
        #expect(again.status == 0 && again.errorOutput.contains("completed"), "\(again.output)\(again.errorOutput)")
        #expect(again.output.isEmpty, "without --json, nothing but progress: \(again.output)")
    }
}

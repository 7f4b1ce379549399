import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache serve` with its cache on a real file system of 40 MiB (a tmpfs) that fills up
/// while two players read through it and a download runs. The players get every byte, the
/// error log says the disk was full, the download fails with "disk full" and completes once
/// there is room, and the index claims only bytes equal to the origin's, losing none it had.
///
/// Mounting needs root: under `CI=true` the test fails without it; elsewhere it says so and
/// ends.
@Suite(.timeLimit(.minutes(3))) struct DiskFullTests {
    static let kept = "/media/kept.mp4"
    static let film = "/media/film.mp4"
    static let playing = "/media/playing.mp4"
    static let later = "/media/later.mp4"
    static let lengths: [String: Int64] = [kept: 4 << 20, film: 16 << 20, playing: 12 << 20, later: 6 << 20]

    @Test func aFullDiskIsStreamedThroughLosesNothingAndTheDownloadCompletesOnceThereIsRoom() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk: SmallFileSystem
        do {
            disk = try SmallFileSystem.mount(at: directory.appending("cache"), bytes: 40 << 20)
        } catch let error as SmallFileSystem.Unavailable where ProcessInfo.processInfo.environment["CI"] != "true" {
            print("DiskFullTests: not run: \(error)")
            return
        }
        defer { disk.unmount() }
        let origin = try await TestOrigin.start()
        for (path, length) in Self.lengths {
            origin.serve(path, content: .pattern(length: length, seed: TestPattern.seed(path)))
        }
        let logs = directory.appending("logs")
        let server = try ServeProcess.start(
            BuiltProducts.executable(named: "mediacache"), cacheDirectory: disk.path,
            ["--log-dir", logs])
        defer { server.terminate() }
        let client = Client(server: server, origin: origin, scratch: directory)

        // Stored while there is room: it must survive everything below.
        try await client.play(Self.kept)

        // The download and a player start; the disk fills while both are under way.
        origin.setMisbehavior(TestOrigin.Misbehavior(bytesPerSecond: 8 << 20), for: Self.film)
        origin.setMisbehavior(TestOrigin.Misbehavior(bytesPerSecond: 8 << 20), for: Self.playing)
        // Each is under way before the disk fills: the download past its check for room (one
        // that starts on a full disk is refused before it fetches), the player's first
        // megabyte sent; at 8 MiB/s both have more than a second to go.
        let download = try await client.startDownload(Self.film)
        let started = try await client.waitForDownload(download) { $0.bytesOnDisk >= 1 << 20 || $0.state != "downloading" }
        #expect(started.state == "downloading", "\(started.state): \(started.error ?? "")")
        let player = Task { try await client.play(Self.playing) }
        let deadline = ContinuousClock.now + .seconds(30)
        while origin.bytesSent(for: Self.playing) < 1 << 20, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try disk.fill(leaving: 256 << 10)
        try await player.value
        // A player that starts on the full disk is answered from the origin too.
        try await client.play(Self.later)

        let failed = try await client.waitForDownload(download) { $0.state != "downloading" && $0.state != "queued" }
        #expect(failed.state == "failed" && failed.error?.contains("disk full") == true, "\(failed.state): \(failed.error ?? "")")
        let errors = try String(contentsOfFile: logs + "/error.log", encoding: .utf8)
        #expect(errors.contains("disk full") && errors.contains(Self.playing) && errors.contains(Self.later), "\(errors)")
        #expect(errors.contains("without caching"), "\(errors)")

        // Room again: the resumed download completes, fetching only what it lacks.
        disk.emptyFiller()
        let sentBefore = origin.bytesSent(for: Self.film)
        try await client.api("POST", "api/downloads/\(download)/resume")
        let resumed = try await client.waitForDownload(download) { $0.state == "completed" || $0.state == "failed" }
        #expect(resumed.state == "completed", "\(resumed.error ?? "")")
        #expect(origin.bytesSent(for: Self.film) - sentBefore < Self.lengths[Self.film]!, "the resume fetched the whole film again")

        #expect(server.stop().status == 0)
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        let store = try MediaStore.open(at: disk.path, configuration: configuration)
        defer { try? store.close() }
        let (checked, mismatches) = try ServeCrashTests.verify(store, origin: origin)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        for path in [Self.kept, Self.film] {
            let stored = try store.availableRanges(for: store.key(for: origin.url(path)))
            #expect(stored.ranges == [ByteRange(0, Self.lengths[path]!)], "\(path): \(stored.ranges)")
        }
        #expect(checked >= Self.lengths[Self.kept]! + Self.lengths[Self.film]!)
        try await origin.stop()
    }
}

/// curl against one server: players that read a whole resource and compare it with the
/// origin's, and the download API.
private struct Client {
    let server: ServeProcess
    let origin: TestOrigin
    let scratch: TemporaryDirectory

    /// Reads `path` whole through the proxy; throws unless every byte is the origin's.
    func play(_ path: String) async throws {
        let file = scratch.appending("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let read = try await CommandRun.run(
            path: try Tools.require("curl"),
            ["-s", "-f", "-o", file, server.root + ProxyURL.path(for: origin.url(path))!.dropFirst()])
        #expect(read.status == 0, "\(path): curl exited \(read.status)")
        let expected = try #require(origin.content(of: path))
        let body = FileManager.default.contents(atPath: file) ?? Data()
        #expect(body.count == Int(expected.length) && body == expected.bytes(in: 0..<expected.length), "\(path): \(body.count) bytes")
    }

    /// Starts downloading `path`; returns the download's identifier.
    func startDownload(_ path: String) async throws -> String {
        let answer = try await api("POST", "api/downloads", body: "{\"url\": \"\(origin.url(path).absoluteString)\"}")
        return try APIJSON.decoder().decode(DownloadReport.self, from: Data(answer.utf8)).id
    }

    /// Polls download `id` until `isDone` holds, for at most a minute.
    func waitForDownload(_ id: String, until isDone: (DownloadReport) -> Bool) async throws -> DownloadReport {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let report = try APIJSON.decoder().decode(DownloadReport.self, from: Data(try await api("GET", "api/downloads/\(id)").utf8))
            if isDone(report) || ContinuousClock.now > deadline { return report }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @discardableResult
    func api(_ method: String, _ path: String, body: String? = nil) async throws -> String {
        var arguments = ["-s", "-X", method, server.root + path]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        return try await CommandRun.run(path: try Tools.require("curl"), arguments).output
    }
}

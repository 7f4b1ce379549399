import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache serve` killed with SIGKILL at random moments while players read through it, a
/// preload runs, a download is in progress (or being removed) and eviction makes room, then
/// started again on the same directory. After every kill, with neither server nor origin
/// involved, every byte the reopened index claims must equal the origin's.
///
/// `MEDIACACHE_SERVE_CRASH_CYCLES` raises the number of cycles (`scripts/crash-soak serve`).
@Suite(.timeLimit(.minutes(30))) struct ServeCrashTests {
    /// What players read and the preload fetches: with the film, more than `--max-size`, so
    /// eviction runs.
    static let clips = (0..<6).map { "/media/clip\($0).mp4" }
    static let clipLength: Int64 = 6 << 20
    /// The downloaded file, pinned and never evicted.
    static let film = "/media/film.mp4"
    static let filmLength: Int64 = 24 << 20

    @Test func everyByteTheIndexClaimsIsTheOriginsAfterAnyKill() async throws {
        let cycles = ProcessInfo.processInfo.environment["MEDIACACHE_SERVE_CRASH_CYCLES"].flatMap(Int.init) ?? 10
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        for path in Self.clips + [Self.film] {
            let length = path == Self.film ? Self.filmLength : Self.clipLength
            origin.serve(path, content: .pattern(length: length, seed: TestPattern.seed(path)))
            origin.setMisbehavior(TestOrigin.Misbehavior(bytesPerSecond: 6 << 20), for: path)
        }
        let cache = directory.appending("cache")
        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SplitMix64(seed: seed)
        var verified: Int64 = 0
        var removals = 0

        for cycle in 1...cycles {
            let server = try ServeProcess.start(
                BuiltProducts.executable(named: "mediacache"), cacheDirectory: cache,
                ["--max-size", "40MiB"])
            let session = Session(server: server, origin: origin)
            let players = (0..<3).map { player in
                Task { await session.play(seed: seed &+ UInt64(cycle * 10 + player)) }
            }
            try await session.preload()
            // Every fourth cycle kills the server within 30 ms of asking it to remove the
            // download, while it deletes; the others at any moment of the load.
            let removal = cycle % 4 == 0 ? try await session.beginRemovingDownload() : nil
            if removal == nil { try await session.startDownloadIfNone() }
            usleep(removal == nil ? UInt32(random.next() % 1_300_000) + 50_000 : UInt32(random.next() % 30_000))
            server.terminate()
            #expect(server.waitForExit(seconds: 10)?.status == 128 + SIGKILL, "seed \(seed), cycle \(cycle): not killed")
            for player in players { player.cancel() }
            for player in players { await player.value }
            if let removal {
                removal.waitForExit()
                removals += 1
            }

            var configuration = MediaStore.Configuration()
            configuration.eviction = .unlimited
            let store = try MediaStore.open(at: cache, configuration: configuration)
            let (bytes, mismatches) = try Self.verify(store, origin: origin)
            try store.close()
            #expect(mismatches.isEmpty, "seed \(seed), cycle \(cycle): \(mismatches.prefix(5))")
            verified += bytes
        }
        #expect(verified > 0, "seed \(seed): no stored byte was ever checked")
        #expect(cycles < 4 || removals > 0, "seed \(seed): no download was removed")
        print("serve killed \(cycles) times under load: \(verified) claimed bytes checked, \(removals) removals")
        try await origin.stop()
    }

    /// Every byte the store claims for every resource, compared with the origin's; the number
    /// of bytes checked and what differed.
    static func verify(_ store: MediaStore, origin: TestOrigin) throws -> (Int64, [String]) {
        var checked: Int64 = 0
        var mismatches: [String] = []
        for entry in try store.entries() {
            guard let path = URL(string: entry.url)?.path, let content = origin.content(of: path) else {
                mismatches.append("\(entry.url) is no resource of the origin")
                continue
            }
            for range in try store.availableRanges(for: entry.key).ranges {
                guard range.upperBound <= content.length else {
                    mismatches.append("\(path) claims \(range), past its \(content.length) bytes")
                    continue
                }
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let piece = ByteRange(offset, min(offset + (1 << 20), range.upperBound))
                    if try store.read(piece, from: entry.key) != content.bytes(in: piece.lowerBound..<piece.upperBound) {
                        mismatches.append("\(path) \(piece) differs from the origin")
                    }
                    checked += piece.length
                    offset = piece.upperBound
                }
            }
        }
        return (checked, mismatches)
    }
}

/// One cycle's load on one server: players, a preload and the download, through its API.
private struct Session {
    let server: ServeProcess
    let origin: TestOrigin

    var port: Int { URL(string: server.root)!.port! }

    func proxied(_ path: String) -> String {
        ProxyURL.path(for: origin.url(path))!
    }

    /// Reads random ranges of random clips, as a player seeking through a feed does, until
    /// the server dies or the task is cancelled.
    func play(seed: UInt64) async {
        var random = SplitMix64(seed: seed)
        let client = RangeClient(port: port)
        while !Task.isCancelled {
            let clip = ServeCrashTests.clips[Int(random.next() % UInt64(ServeCrashTests.clips.count))]
            let start = Int64(random.next() % UInt64(ServeCrashTests.clipLength))
            let stop = random.next() % 2 == 0 ? "" : "\(min(start + Int64(random.next() % (2 << 20)), ServeCrashTests.clipLength - 1))"
            do {
                _ = try await client.read(proxied(clip), range: "bytes=\(start)-\(stop)", stopAfter: 3 << 20)
            } catch {
                return
            }
        }
    }

    func preload() async throws {
        let urls = ServeCrashTests.clips.map { "\"\(origin.url($0).absoluteString)\"" }.joined(separator: ",")
        _ = try await api("POST", "api/preload", body: "{\"urls\": [\(urls)], \"bytes\": 1500000}")
    }

    func startDownloadIfNone() async throws {
        let list = try await api("GET", "api/downloads")
        guard !list.contains("film.mp4") else { return }
        _ = try await api("POST", "api/downloads", body: "{\"url\": \"\(origin.url(ServeCrashTests.film).absoluteString)\"}")
    }

    /// Asks the server to remove the download, if there is one, without waiting for the answer:
    /// the curl process sending the request, or `nil` when there is no download.
    func beginRemovingDownload() async throws -> ChildProcess? {
        let list = try await api("GET", "api/downloads")
        guard let download = try APIJSON.decoder().decode([DownloadReport].self, from: Data(list.utf8)).first else { return nil }
        return try ChildProcess.spawn(
            path: try Tools.require("curl"), ["-s", "-X", "DELETE", server.root + "api/downloads/\(download.id)"],
            capturingOutput: false)
    }

    private func api(_ method: String, _ path: String, body: String? = nil) async throws -> String {
        var arguments = ["-s", "-X", method, server.root + path]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        return try await CommandRun.run(path: try Tools.require("curl"), arguments).output
    }
}

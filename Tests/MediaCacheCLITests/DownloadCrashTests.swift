import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// A foreground `mediacache download` killed with SIGKILL at random moments, then started
/// again, completes, fetches no stored byte again, and the download plays offline.
@Suite(.timeLimit(.minutes(3))) struct DownloadCrashTests {
    @Test func aDownloadKilledAtRandomMomentsCompletesAndPlaysOffline() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let files = try await TestHLS(.multivariant, seconds: 30).make(in: directory.path)
        for (path, data) in files {
            origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
            if !path.hasSuffix(".m3u8") { origin.setMisbehavior(TestOrigin.Misbehavior(bytesPerSecond: 100_000), for: "/hls/" + path) }
        }
        let master = origin.url("/hls/master.m3u8").absoluteString
        let cache = directory.appending("cache")
        let mediacache = BuiltProducts.executable(named: "mediacache").path
        let ffmpeg = try Tools.require("ffmpeg")
        let output = ["-map", "0:v:0", "-map", "0:a:0", "-f", "md5", "-"]
        let direct = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-i", master] + output)
        let sentBefore = Dictionary(uniqueKeysWithValues: files.keys.map { ($0, origin.bytesSent(for: "/hls/" + $0)) })

        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SplitMix64(seed: seed)
        let selected = files.keys.filter { ($0.hasPrefix("v0/") || $0.hasPrefix("v1/")) && $0.hasSuffix(".ts") }
        // What the cache held when each run started (nothing at first), and the requests made
        // before it.
        func requestCounts() -> [String: Int] {
            Dictionary(uniqueKeysWithValues: selected.map { ($0, origin.requests(for: "/hls/" + $0).count) })
        }
        var stored: [String: ByteRangeSet] = [:]
        var requestsBefore = requestCounts()
        /// Checks that the run just ended asked the origin for no byte the cache held when it started.
        func checkRun() throws {
            for path in selected {
                for request in origin.requests(for: "/hls/" + path).dropFirst(requestsBefore[path] ?? 0)
                where request.method == "GET" {
                    guard let asked = request.requestedBytes(of: Int64(files[path]!.count)) else { continue }
                    let range = ByteRange(asked.lowerBound, asked.upperBound)
                    #expect(
                        stored[path]?.coveredLength(in: range) ?? 0 == 0,
                        "seed \(seed): \(path): \(request.range ?? "whole") asked again for bytes stored: \(stored[path] ?? ByteRangeSet())"
                    )
                }
            }
            stored = try Self.storedBytes(of: selected, in: cache, origin: origin)
            requestsBefore = requestCounts()
        }
        var kills = 0
        var finished = false
        while !finished, kills < 5 {
            let after = String(format: "%.2f", Double.random(in: 0.3...1.2, using: &random))
            // `--foreground`: timeout kills only the download and waits for it to be gone. Without
            // it, timeout sends the KILL to its whole process group, itself included, and can be
            // reported dead while the download's threads still exit and hold the cache
            // directory's lock, so that the next run found the directory in use.
            let run = try await CommandRun.run(
                path: "/usr/bin/timeout",
                [
                    "--foreground", "-s", "KILL", after, mediacache,
                    "download", master, "--audio", "en", "--cache-dir", cache,
                ])
            if run.status == 0 {
                finished = true
            } else {
                #expect(run.status == 137, "seed \(seed): killed, or \(run.errorOutput)")
                kills += 1
            }
            try checkRun()
        }
        if !finished {
            let last = try await CommandRun.run(path: mediacache, ["download", master, "--audio", "en", "--cache-dir", cache])
            #expect(last.status == 0, "seed \(seed): \(last.output)\(last.errorOutput)")
            try checkRun()
        }
        #expect(kills > 0, "seed \(seed): the download was killed at least once")
        let listed = try await CommandRun.run(path: mediacache, ["downloads", "--json", "--cache-dir", cache])
        let report = try #require(try APIJSON.decoder().decode([DownloadReport].self, from: Data(listed.output.utf8)).first)
        #expect(report.state == "completed" && report.segmentsDone == report.segmentCount, "seed \(seed): \(report)")

        let size = selected.map { Int64(files[$0]!.count) }.reduce(0, +)
        let fetched = selected.map { origin.bytesSent(for: "/hls/" + $0) - (sentBefore[$0] ?? 0) }.reduce(0, +)
        // No run asked for a stored byte again (`checkRun`), and a kill loses nothing the
        // process received: the store's journal recovers what was written but not yet committed.
        // What is left is what the origin had sent into the running transfers' sockets when the
        // process died, a few 2,000-byte pieces per kill: 1.001–1.027 of the asset over five
        // kills in the runs so far, more on a machine busy enough to leave pieces unread.
        #expect(Double(fetched) <= 1.10 * Double(size), "seed \(seed): \(fetched) bytes fetched for \(size), \(kills) kills")
        print(
            "download killed \(kills) times: \(fetched) origin bytes for \(size) (\(String(format: "%.3f", Double(fetched) / Double(size))))"
        )

        try await origin.stop()
        let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: cache)
        defer { server.terminate() }
        let offline = try await CommandRun.run(
            path: ffmpeg, ["-v", "error", "-i", server.root + "http/127.0.0.1:\(origin.port)/hls/master.m3u8"] + output)
        #expect(offline.status == 0 && offline.output == direct.output, "seed \(seed): \(offline.errorOutput)")
        #expect(server.stop().status == 0)
    }

    /// The bytes the cache in `directory` holds of each of `paths` (under `/hls/` at `origin`);
    /// opening the store recovers what a killed process wrote, as the next run's open would.
    private static func storedBytes(
        of paths: [String], in directory: String,
        origin: TestOrigin
    ) throws -> [String: ByteRangeSet] {
        let store = try MediaStore.open(at: directory)
        defer { try? store.close() }
        return try Dictionary(
            uniqueKeysWithValues: paths.map { path in
                (path, try store.record(for: store.key(for: origin.url("/hls/" + path)))?.available ?? ByteRangeSet())
            })
    }
}

import Foundation
import MediaCache
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
        var kills = 0
        var finished = false
        while !finished, kills < 5 {
            let after = String(format: "%.2f", Double.random(in: 0.3...1.2, using: &random))
            let run = try await CommandRun.run(path: "/usr/bin/timeout", ["-s", "KILL", after, mediacache, "download", master,
                                                                          "--audio", "en", "--cache-dir", cache])
            if run.status == 0 {
                finished = true
            } else {
                #expect(run.status == 137, "seed \(seed): killed, or \(run.errorOutput)")
                kills += 1
            }
        }
        if !finished {
            let last = try await CommandRun.run(path: mediacache, ["download", master, "--audio", "en", "--cache-dir", cache])
            #expect(last.status == 0, "seed \(seed): \(last.output)\(last.errorOutput)")
        }
        #expect(kills > 0, "seed \(seed): the download was killed at least once")
        let listed = try await CommandRun.run(path: mediacache, ["downloads", "--json", "--cache-dir", cache])
        let report = try #require(try APIJSON.decoder().decode([DownloadReport].self, from: Data(listed.output.utf8)).first)
        #expect(report.state == "completed" && report.segmentsDone == report.segmentCount, "seed \(seed): \(report)")

        let selected = files.keys.filter { ($0.hasPrefix("v0/") || $0.hasPrefix("v1/")) && $0.hasSuffix(".ts") }
        let size = selected.map { Int64(files[$0]!.count) }.reduce(0, +)
        let fetched = selected.map { origin.bytesSent(for: "/hls/" + $0) - (sentBefore[$0] ?? 0) }.reduce(0, +)
        // Stored bytes are never fetched again, and a kill loses nothing the process received:
        // the store's journal recovers what was written but not yet committed. What is left is
        // what the origin had sent into the socket buffers when the process died.
        #expect(Double(fetched) <= 1.02 * Double(size), "seed \(seed): \(fetched) bytes fetched for \(size), \(kills) kills")
        print("download killed \(kills) times: \(fetched) origin bytes for \(size) (\(String(format: "%.3f", Double(fetched) / Double(size))))")

        try await origin.stop()
        let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: cache)
        defer { server.terminate() }
        let offline = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-i", server.root + "http/127.0.0.1:\(origin.port)/hls/master.m3u8"] + output)
        #expect(offline.status == 0 && offline.output == direct.output, "seed \(seed): \(offline.errorOutput)")
        #expect(server.stop().status == 0)
    }
}

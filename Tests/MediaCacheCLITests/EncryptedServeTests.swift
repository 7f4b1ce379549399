import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache serve --encrypt-key-file` end to end: files, playlists and downloads are stored
/// as ciphertext and served as they were; a damaged block is fetched again, not served; another
/// key finds nothing and leaves the cache intact.
@Suite(.timeLimit(.minutes(3))) struct EncryptedServeTests {
    @Test func everythingIsStoredEncryptedAndServedAsItWas() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.appending("cache.key")
        try Data((String(repeating: "a5", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        let cache = directory.appending("cache")
        let origin = try await TestOrigin.start()
        let clip = TestOrigin.Content.pattern(length: 300_000, seed: 11)
        origin.serve("/v/clip.mp4", content: clip)
        let film = TestOrigin.Content.pattern(length: 2_000_000, seed: 12)
        origin.serve("/v/film.mp4", content: film)
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4,\nclip.mp4\n#EXT-X-ENDLIST\n"
        origin.serve("/v/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
        let executable = BuiltProducts.executable(named: "mediacache")

        var server = try ServeProcess.start(executable, cacheDirectory: cache, ["--encrypt-key-file", keyFile])
        #expect(server.banner.contains("encrypted at rest"))
        var client = EncryptedClient(server: server, origin: origin, scratch: directory)
        for _ in 0..<2 { #expect(try await client.get("/v/clip.mp4") == clip.bytes(in: 0..<300_000)) }
        #expect(origin.bytesSent(for: "/v/clip.mp4") == 300_000, "the second read came from the cache")
        #expect(try await client.get("/v/index.m3u8").count > 0)
        let id = try await client.download("/v/film.mp4")
        #expect(try await client.waitForDownload(id) == "completed")
        #expect(server.stop().status == 0)

        // Nothing on disk reads as what was cached.
        let dataFiles = try FileManager.default.contentsOfDirectory(atPath: cache + "/data").map { cache + "/data/" + $0 }
        #expect(dataFiles.count == 3)
        for path in dataFiles {
            let onDisk = try #require(FileManager.default.contents(atPath: path))
            #expect(onDisk.range(of: Data("#EXTM3U".utf8)) == nil)
            #expect(onDisk.range(of: clip.bytes(in: 1000..<1064)) == nil && onDisk.range(of: film.bytes(in: 1000..<1064)) == nil)
        }

        // A damaged block is fetched again, never served.
        // The clip's file: a 32-byte header, then 300,000 bytes in five blocks of 64 KiB, each with a 16-byte tag.
        let clipFile = try #require(dataFiles.first { FileManager.default.contents(atPath: $0)?.count == 32 + 300_000 + 5 * 16 })
        var damaged = try #require(FileManager.default.contents(atPath: clipFile))
        damaged[100_000] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: clipFile))
        server = try ServeProcess.start(executable, cacheDirectory: cache, ["--encrypt-key-file", keyFile])
        client = EncryptedClient(server: server, origin: origin, scratch: directory)
        #expect(try await client.get("/v/clip.mp4") == clip.bytes(in: 0..<300_000))
        let refetched = origin.bytesSent(for: "/v/clip.mp4") - 300_000
        #expect(refetched > 0 && refetched < 300_000, "refetched \(refetched) bytes")
        #expect(server.stop().status == 0)

        // Another key finds an empty cache and changes nothing of this one.
        let otherKey = directory.appending("other.key")
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: otherKey))
        let listing = try CommandRun.run("mediacache", ["ls", "--json", "--cache-dir", cache, "--encrypt-key-file", otherKey])
        #expect(listing.status == 0 && listing.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(listing.output)")
        #expect(listing.errorOutput.contains("left as it is"))
        let owned = try CommandRun.run("mediacache", ["ls", "--json", "--cache-dir", cache, "--encrypt-key-file", keyFile])
        // The playlist's asset (with the clip it names) and the film.
        let entries = try APIJSON.decoder().decode([EntryReport].self, from: Data(owned.output.utf8))
        #expect(entries.map { URL(string: $0.entry.url)?.lastPathComponent } == ["index.m3u8", "film.mp4"], "\(owned.output)")
        #expect(owned.output.contains("\"cachedBytes\":\(300_000 + playlist.utf8.count)"), "the clip is cached whole in the asset")
        try await origin.stop()
    }
}

/// curl against one encrypted server.
private struct EncryptedClient {
    let server: ServeProcess
    let origin: TestOrigin
    let scratch: TemporaryDirectory

    func get(_ path: String) async throws -> Data {
        let file = scratch.appending("body")
        let read = try await CommandRun.run(
            path: try Tools.require("curl"),
            ["-s", "-f", "-o", file, server.root + ProxyURL.path(for: origin.url(path))!.dropFirst()])
        #expect(read.status == 0, "\(path): curl exited \(read.status)")
        return FileManager.default.contents(atPath: file) ?? Data()
    }

    func download(_ path: String) async throws -> String {
        let answer = try await api("POST", "api/downloads", body: "{\"url\": \"\(origin.url(path).absoluteString)\"}")
        return try APIJSON.decoder().decode(DownloadReport.self, from: Data(answer.utf8)).id
    }

    func waitForDownload(_ id: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let report = try APIJSON.decoder().decode(DownloadReport.self, from: Data(try await api("GET", "api/downloads/\(id)").utf8))
            if report.state == "completed" || report.state == "failed" || ContinuousClock.now > deadline { return report.state }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func api(_ method: String, _ path: String, body: String? = nil) async throws -> String {
        var arguments = ["-s", "-X", method, server.root + path]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        return try await CommandRun.run(path: try Tools.require("curl"), arguments).output
    }
}

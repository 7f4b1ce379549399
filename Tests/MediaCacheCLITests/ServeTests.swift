import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache serve` as a user runs it, with curl as the client and the other commands
/// talking to it while it owns the directory.
@Suite(.timeLimit(.minutes(2))) struct ServeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func mediacache(_ arguments: String...) throws -> CommandRun {
        try CommandRun.run("mediacache", arguments + ["--cache-dir", directory.path])
    }

    func curl(_ arguments: String...) async throws -> CommandRun {
        try await CommandRun.run(path: try Tools.require("curl"), ["-s"] + arguments)
    }

    @Test func servesThroughTheCacheAnswersTheCLIWhileRunningAndFlushesOnSIGINT() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let content = TestOrigin.Content.pattern(length: 300_000, seed: 3)
        origin.serve("/v/a.mp4", content: content)
        let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.path)
        defer { server.terminate() }
        let port = try #require(server.root.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { String($0.1) })
        #expect(server.banner.contains("caching proxy on \(server.root)"))

        let proxied = try CommandRun.run("mediacache", ["url", origin.url("/v/a.mp4").absoluteString, "--port", port])
        let url = proxied.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url == "\(server.root)http/127.0.0.1:\(origin.port)/v/a.mp4")
        let body = directory.appending("body")
        for _ in 0..<2 {
            let fetch = try await curl("-f", "-o", body, url)
            #expect(fetch.status == 0, "curl: \(fetch.errorOutput)")
            #expect(Bytes(FileManager.default.contents(atPath: body)) == Bytes(content.bytes(in: 0..<300_000)))
        }

        // The server owns the directory; the commands use its API.
        let listing = try mediacache("ls", "--json")
        #expect(listing.status == 0, "\(listing.errorOutput)")
        let entries = try APIJSON.decoder().decode([EntryReport].self, from: Data(listing.output.utf8))
        #expect(entries.map(\.cachedRanges) == [[ByteRange(offset: 0, length: 300_000)]])
        let stats = try APIJSON.decoder().decode(StatsReport.self, from: Data(try mediacache("stats", "--json").output.utf8))
        #expect(stats.statistics?.bytesServed == 600_000)
        #expect(stats.statistics?.bytesFromOrigin == 300_000)
        #expect(try mediacache("stats").output.contains("hit ratio"))
        let metrics = try await curl(server.root + "metrics")
        #expect(metrics.output.contains("mediacache_origin_bytes_total 300000"))
        let page = try await curl(server.root)
        #expect(page.output.contains(">a.mp4<"))

        let stopped = server.stop()
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("index is flushed"))
        #expect(!FileManager.default.fileExists(atPath: ServerAnnouncement.path(in: directory.path)))
        try await origin.stop()
        let after = try mediacache("ls", "--json")
        let stored = try APIJSON.decoder().decode([EntryReport].self, from: Data(after.output.utf8))
        #expect(stored.first?.entry.cachedBytes == 300_000, "the store opened by the command itself")
    }

    @Test func theCLIRemovesAndClearsThroughTheRunningServer() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        for name in ["a", "b"] { origin.serve("/\(name).mp4", content: .pattern(length: 10_000, seed: 1)) }
        let server = try ServeProcess.start(BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.path)
        defer { server.terminate() }
        for name in ["a", "b"] {
            let url = server.root + "http/127.0.0.1:\(origin.port)/\(name).mp4"
            #expect(try await curl("-f", "-o", "/dev/null", url).status == 0)
        }
        let removed = try mediacache("rm", origin.url("/a.mp4").absoluteString)
        #expect(removed.status == 0, "\(removed.errorOutput)")
        #expect(removed.output.contains("removed http://127.0.0.1:\(origin.port)/a.mp4"))
        #expect(try mediacache("rm", origin.url("/a.mp4").absoluteString).status != 0)
        #expect(try mediacache("clear").output.contains("removed 1 resource"))
        let listing = try mediacache("ls", "--json")
        #expect(listing.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(server.stop().status == 0)
        try await origin.stop()
    }

    @Test func beyondLoopbackTheServerNeedsATokenAndThenEveryRequestCarriesIt() async throws {
        defer { directory.remove() }
        let refused = try CommandRun.run(
            "mediacache",
            [
                "serve", "--host", "0.0.0.0", "--port", "0",
                "--cache-dir", directory.path,
            ])
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("without a token"))

        let origin = try await TestOrigin.start()
        origin.serve("/a.mp4", content: .pattern(length: 10_000, seed: 2))
        let token = "t0ken-for-tests"
        let server = try ServeProcess.start(
            BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.path, ["--host", "0.0.0.0", "--token", token])
        defer { server.terminate() }
        #expect(server.root.hasSuffix("/t/\(token)/"))
        let port = try #require(server.root.firstMatch(of: /:(\d+)\//).map { String($0.1) })
        let bare = "http://127.0.0.1:\(port)/http/127.0.0.1:\(origin.port)/a.mp4"
        #expect(try await curl("-o", "/dev/null", "-w", "%{http_code}", bare).output == "401")
        let tokened = "http://127.0.0.1:\(port)/t/\(token)/http/127.0.0.1:\(origin.port)/a.mp4"
        #expect(try await curl("-o", "/dev/null", "-w", "%{http_code}", tokened).output == "200")
        #expect(try await curl("-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", bare).output == "200")
        let listing = try mediacache("ls", "--json")
        #expect(listing.status == 0, "the CLI reads the token from the server's announcement: \(listing.errorOutput)")
        #expect(listing.output.contains("a.mp4"))
        #expect(server.stop().status == 0)
        try await origin.stop()
    }

    @Test func theConnectionLimitAndIdleTimeoutComeFromTheFlags() async throws {
        defer { directory.remove() }
        let server = try ServeProcess.start(
            BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.path,
            ["--max-connections", "1", "--idle-timeout", "0.3"])
        defer { server.terminate() }
        let port = try #require(server.root.firstMatch(of: /127\.0\.0\.1:(\d+)\//).map { Int($0.1) } ?? nil)
        let idle = LoopbackSocket()
        defer { idle.close() }
        #expect(idle.connect(port: port))
        // The idle connection holds the only slot once the server has accepted it.
        var status = ""
        for _ in 0..<50 where status != "503" {
            status = try await curl("-o", "/dev/null", "-w", "%{http_code}", server.root + "api/stats").output
        }
        #expect(status == "503")
        idle.setReceiveTimeout(seconds: 20)
        var byte: UInt8 = 0
        #expect(recv(idle.descriptor, &byte, 1, 0) == 0, "the server closed the idle connection")
        for _ in 0..<50 where status != "200" {
            status = try await curl("-o", "/dev/null", "-w", "%{http_code}", server.root + "api/stats").output
        }
        #expect(status == "200")
        #expect(server.stop().status == 0)
    }

    @Test func anAllowListKeepsOtherHostsOut() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        origin.serve("/a.mp4", content: .pattern(length: 1_000, seed: 2))
        let server = try ServeProcess.start(
            BuiltProducts.executable(named: "mediacache"), cacheDirectory: directory.path,
            ["--allow-host", "cdn.example.com,*.example.org"])
        defer { server.terminate() }
        let url = server.root + "http/127.0.0.1:\(origin.port)/a.mp4"
        #expect(try await curl("-o", "/dev/null", "-w", "%{http_code}", url).output == "403")
        #expect(origin.requests(for: "/a.mp4").isEmpty)
        #expect(server.stop().status == 0)
        try await origin.stop()
    }
}

import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `mediacache serve` started, stopped and found as a new user does: signals while a slow client
/// streams, the address forms it accepts, and the other commands finding it.
@Suite(.timeLimit(.minutes(2))) struct ServeLifecycleTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    var executable: URL { BuiltProducts.executable(named: "mediacache") }

    func mediacache(_ arguments: String...) throws -> CommandRun {
        try CommandRun.run("mediacache", arguments + ["--cache-dir", directory.path])
    }

    /// curl reading `url` at 64 KiB/s into `file`, for a response that stays in progress.
    func slowClient(_ url: String, into file: String) throws -> ChildProcess {
        try ChildProcess.spawn(path: try Tools.require("curl"), ["-s", "--limit-rate", "64k", "-o", file, url], capturingOutput: false)
    }

    func size(of file: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Waits until `file` holds some bytes: the response is in progress.
    func waitForBytes(in file: String) async throws {
        for _ in 0..<500 where size(of: file) == 0 { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// A server with the grace period `grace` streaming a 64 MiB file to a slow client.
    struct Streaming {
        let origin: TestOrigin
        let server: ServeProcess
        let client: ChildProcess
        let body: String
    }

    /// Starts the origin, the server and the slow client, and waits until bytes flow.
    func streaming(grace: String) async throws -> Streaming {
        let origin = try await TestOrigin.start()
        origin.serve("/long.mp4", content: .pattern(length: 64 << 20, seed: 8))
        let server = try ServeProcess.start(executable, cacheDirectory: directory.path, ["--shutdown-grace", grace])
        let body = directory.appending("body")
        let client = try slowClient(server.root + "http/127.0.0.1:\(origin.port)/long.mp4", into: body)
        try await waitForBytes(in: body)
        return Streaming(origin: origin, server: server, client: client, body: body)
    }

    @Test func aSignalStopsAServerThatIsStreamingAfterTheGracePeriodWithTheIndexFlushed() async throws {
        defer { directory.remove() }
        let stream = try await streaming(grace: "1")
        defer {
            stream.server.terminate()
            stream.client.send(SIGKILL)
        }

        stream.server.send(SIGINT)
        // Without a bound the response would go on for the 17 minutes the client needs; ten
        // seconds is far beyond the one-second grace and far below that.
        let stopped = try #require(stream.server.waitForExit(seconds: 10), "the server still streams after SIGINT")
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("index is flushed"))
        for _ in 0..<1_000 where stream.client.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(size(of: stream.body) < 64 << 20, "the slow client got a short response")
        #expect(!FileManager.default.fileExists(atPath: ServerAnnouncement.path(in: directory.path)))
        let listing = try APIJSON.decoder().decode([EntryReport].self, from: Data(try mediacache("ls", "--json").output.utf8))
        #expect((listing.first?.entry.cachedBytes ?? 0) >= size(of: stream.body), "what was served is in the flushed index")
        try await stream.origin.stop()
    }

    @Test func aSecondSignalStopsAtOnceEvenWithALongGracePeriod() async throws {
        defer { directory.remove() }
        let stream = try await streaming(grace: "600")
        defer {
            stream.server.terminate()
            stream.client.send(SIGKILL)
        }

        stream.server.send(SIGINT)
        #expect(stream.server.waitForExit(seconds: 1) == nil, "the first signal waits for the response in progress")
        stream.server.send(SIGTERM)
        let stopped = try #require(stream.server.waitForExit(seconds: 10), "a second signal did not stop the server")
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("index is flushed"))
        try await stream.origin.stop()
    }

    @Test func aPortInUseIsNamedWithAWayOut() throws {
        defer { directory.remove() }
        let first = try ServeProcess.start(executable, cacheDirectory: directory.appending("a"))
        defer { first.terminate() }
        let port = try #require(first.root.firstMatch(of: /:(\d+)\//).map { String($0.1) })
        let second = try CommandRun.run("mediacache", ["serve", "--port", port, "--cache-dir", directory.appending("b")])
        #expect(second.status == 1)
        #expect(second.errorOutput.contains("port \(port) on 127.0.0.1 is in use"), "\(second.errorOutput)")
        #expect(second.errorOutput.contains("--port 0"))
        #expect(first.stop().status == 0)
    }

    /// A server closes a connection first when its client asks it to, so its side of that
    /// connection waits out TCP's `TIME_WAIT` on the port for a minute. A server restarted on
    /// the port meanwhile starts: only a server that listens makes the port in use.
    @Test func aServerRestartsAtOnceOnThePortOfConnectionsItClosed() throws {
        defer { directory.remove() }
        let first = try ServeProcess.start(executable, cacheDirectory: directory.appending("a"))
        defer { first.terminate() }
        let port = try #require(first.root.firstMatch(of: /:(\d+)\//).map { String($0.1) })
        let client = LoopbackSocket()
        defer { client.close() }
        client.setReceiveTimeout(seconds: 10)
        try #require(client.connect(port: Int(port)!))
        let request = Array("GET /no/such/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        #expect(send(client.descriptor, request, request.count, 0) == request.count)
        // The server closes first: its end of the input comes before the client closes.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = 0
        while case let count = recv(client.descriptor, &buffer, buffer.count, 0), count > 0 { received += count }
        #expect(received > 0)
        #expect(first.stop().status == 0)

        let second = try ServeProcess.start(executable, cacheDirectory: directory.appending("b"), ["--port", port])
        defer { second.terminate() }
        #expect(second.root.contains(":\(port)/"))
        #expect(second.stop().status == 0)
    }

    @Test func localhostIsLoopbackAndNeedsNoToken() throws {
        defer { directory.remove() }
        let server = try ServeProcess.start(executable, cacheDirectory: directory.path, ["--host", "localhost"])
        #expect(server.root.hasPrefix("http://localhost:"))
        #expect(server.stop().status == 0)
    }

    @Test func theOtherCommandsFindTheServerThroughATildePathAndItsAnnouncement() async throws {
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        origin.serve("/a.mp4", content: .pattern(length: 10_000, seed: 4))
        let home = ["HOME": directory.path]
        let token = "t0ken-for-tests"
        let server = try ServeProcess.start(
            executable, cacheDirectory: "unused", ["--cache-dir=~/cache", "--token", token],
            environment: home)
        defer { server.terminate() }
        let cache = directory.appending("cache")
        #expect(server.banner.contains("with the cache in \(cache)"))
        let announcement = ServerAnnouncement.path(in: cache)
        let mode = try FileManager.default.attributesOfItem(atPath: announcement)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: announcement + ".tmp"))

        let environment = ProcessInfo.processInfo.environment.merging(home) { $1 }
        func run(_ arguments: [String]) throws -> CommandRun {
            try CommandRun.run("mediacache", arguments + ["--cache-dir=~/cache"], environment: environment)
        }
        let url = try run(["url", origin.url("/a.mp4").absoluteString])
        #expect(url.status == 0, "\(url.errorOutput)")
        #expect(url.output == server.root + "http/127.0.0.1:\(origin.port)/a.mp4\n", "the running server's port and token")
        #expect(server.root.contains("/t/\(token)/"))
        let fetch = try await CommandRun.run(
            path: try Tools.require("curl"), ["-sf", "-o", "/dev/null", url.output.trimmingCharacters(in: .newlines)])
        #expect(fetch.status == 0)

        let missing = origin.url("/none.mp4").absoluteString
        let throughServer = try run(["rm", missing])
        #expect(throughServer.status == 1)
        #expect(try run(["pin", origin.url("/a.mp4").absoluteString]).output == "pinned \(origin.url("/a.mp4").absoluteString)\n")
        #expect(try run(["ls"]).output.contains("pinned"))
        #expect(try run(["unpin", origin.url("/a.mp4").absoluteString]).status == 0)
        #expect(server.stop().status == 0)

        let withoutServer = try run(["rm", missing])
        #expect(withoutServer.status == 1)
        #expect(throughServer.errorOutput == withoutServer.errorOutput, "one message with and without a server")
        #expect(withoutServer.errorOutput == "Error: no cached resource \(missing)\n")
        try await origin.stop()
    }
}

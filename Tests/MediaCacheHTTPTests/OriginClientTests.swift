import Foundation
import MediaCacheEventLoops
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing
@testable import MediaCacheHTTP

/// The origin client against a scripted loopback origin: kept connections, redirects, the read
/// timeout and back pressure, each with the precise error a failure gets.
@Suite(.timeLimit(.minutes(1))) struct OriginClientTests {
    /// The clients' own thread, as ``ScriptedOrigin`` has its own: the read timeouts here are
    /// short, and NIO's shared loops also run the other suites' origins.
    private static let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    private func client(readTimeout: TimeAmount = .seconds(30), idleTimeout: TimeAmount = .seconds(60)) -> OriginClient {
        OriginClient(configuration: .init(readTimeout: readTimeout, idleTimeout: idleTimeout), group: Self.loop)
    }

    /// The body of a `GET` of `url`, and the head that came with it.
    private func get(
        _ url: URL, on client: OriginClient, headers: HTTPHeaders = [:], maximumRedirects: Int = 10,
        limit: Int = 512 << 10
    ) async throws -> (OriginTransfer.Head, String) {
        let transfer = OriginTransfer(
            .init(url: url, method: .GET, headers: headers), on: client,
            maximumRedirects: maximumRedirects, limit: limit)
        let head = try await transfer.head()
        var body = Data()
        while let chunk = try await transfer.next() { body.append(chunk) }
        return (head, String(decoding: body, as: UTF8.self))
    }

    @Test func aKeptConnectionTheOriginClosedUnansweredIsAskedAgainOnANewOne() async throws {
        // The first connection answers once, then closes at the second request without a word,
        // as an origin whose idle timeout struck just as the request left.
        let origin = try await ScriptedOrigin.start { request in
            request.connection == 0 && request.index == 1 ? .close : .answer(ScriptedOrigin.response(body: "\(request.connection)"))
        }
        let client = client()
        #expect(try await get(origin.url("/a"), on: client).1 == "0")
        #expect(try await get(origin.url("/a"), on: client).1 == "1")
        #expect(origin.requests.map(\.connection) == [0, 0, 1])
        try await client.shutdown()
        try await origin.stop()
    }

    @Test func aNewConnectionClosedUnansweredFailsWithoutAskingAgain() async throws {
        let origin = try await ScriptedOrigin.start { _ in .close }
        let client = client()
        await #expect(throws: OriginClientError.closedBeforeAnswer(reused: false)) {
            _ = try await get(origin.url("/a"), on: client)
        }
        #expect(origin.requests.count == 1)
        try await client.shutdown()
        try await origin.stop()
    }

    @Test func aConnectionThatSentAnAnswerNobodyAskedForIsNotKept() async throws {
        let origin = try await ScriptedOrigin.start { request in
            let answer = ScriptedOrigin.response(body: "\(request.connection)")
            return .answer(request.connection == 0 ? answer + ScriptedOrigin.response(body: "unasked") : answer)
        }
        let client = client()
        #expect(try await get(origin.url("/a"), on: client).1 == "0")
        #expect(try await get(origin.url("/a"), on: client).1 == "1")
        try await client.shutdown()
        try await origin.stop()
    }

    @Test func aRedirectToAnotherOriginGoesWithoutCredentialsAndKeepsTheRange() async throws {
        let target = try await ScriptedOrigin.start { _ in .answer(ScriptedOrigin.response(body: "moved")) }
        let origin = try await ScriptedOrigin.start { request in
            request.target == "/a"
                ? .answer(ScriptedOrigin.response("302 Found", headers: ["Location: /b"]))
                : .answer(ScriptedOrigin.response("307 Temporary Redirect", headers: ["Location: \(target.url("/c"))"]))
        }
        let client = client()
        let headers: HTTPHeaders = ["Authorization": "Bearer secret", "Cookie": "session=1", "Range": "bytes=0-4"]
        let (head, body) = try await get(origin.url("/a"), on: client, headers: headers)
        #expect(body == "moved" && head.url == target.url("/c"))
        // Within one origin, the credentials stay; to another, they do not.
        #expect(origin.requests.map { $0.headers["authorization"] } == ["Bearer secret", "Bearer secret"])
        let moved = try #require(target.requests.first)
        #expect(moved.headers["authorization"] == nil && moved.headers["cookie"] == nil)
        #expect(moved.headers["range"] == "bytes=0-4" && moved.headers["host"] == "127.0.0.1:\(target.port)")
        try await client.shutdown()
        try await origin.stop()
        try await target.stop()
    }

    @Test func aRedirectBackToAnAskedURLIsAPreciseError() async throws {
        let origin = try await ScriptedOrigin.start { request in
            .answer(ScriptedOrigin.response("301 Moved Permanently", headers: ["Location: \(request.target == "/a" ? "/b" : "/a")"]))
        }
        let client = client()
        let url = origin.url("/a")
        await #expect(throws: OriginClientError.redirectCycle(url)) { _ = try await get(url, on: client) }
        #expect(origin.requests.map(\.target) == ["/a", "/b"])
        #expect(
            TransportFailure.reason(OriginClientError.redirectCycle(url), url: url)
                == "127.0.0.1:\(origin.port) redirected back to \(url.absoluteString)")
        try await client.shutdown()
        try await origin.stop()
    }

    @Test func redirectsPastTheLimitAreAPreciseError() async throws {
        let origin = try await ScriptedOrigin.start { request in
            .answer(ScriptedOrigin.response("302 Found", headers: ["Location: \(request.target)x"]))
        }
        let client = client()
        await #expect(throws: OriginClientError.tooManyRedirects(3)) {
            _ = try await get(origin.url("/a"), on: client, maximumRedirects: 3)
        }
        #expect(origin.requests.map(\.target) == ["/a", "/ax", "/axx", "/axxx"])
        // Each redirect's empty body was read to its end: one connection carried them all.
        #expect(Set(origin.requests.map(\.connection)) == [0])
        try await client.shutdown()
        try await origin.stop()
    }

    @Test func anOriginThatStopsSendingFailsAfterTheReadTimeout() async throws {
        let origin = try await ScriptedOrigin.start { _ in .answer("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b") }
        let client = client(readTimeout: .milliseconds(200))
        let transfer = OriginTransfer(
            .init(url: origin.url("/a"), method: .GET, headers: [:]), on: client,
            maximumRedirects: 10, limit: 512 << 10)
        #expect(try await transfer.head().status == .ok)
        #expect(try await transfer.next() == Data("only ten b".utf8))
        await #expect(throws: OriginClientError.readTimeout) { _ = try await transfer.next() }
        try await client.shutdown()
        try await origin.stop()
    }

    /// A body the fetch does not take holds the connection's reads; the time it is held is not
    /// the origin's silence.
    @Test func aBodyHeldLongerThanTheReadTimeoutDoesNotTimeOut() async throws {
        let body = String(repeating: "m", count: 4 << 20)
        let origin = try await ScriptedOrigin.start { _ in .answer(ScriptedOrigin.response(body: body)) }
        let client = client(readTimeout: .milliseconds(300))
        let transfer = OriginTransfer(
            .init(url: origin.url("/a"), method: .GET, headers: [:]), on: client,
            maximumRedirects: 10, limit: 64 << 10)
        _ = try await transfer.head()
        try await Task.sleep(for: .seconds(1))
        var received = 0
        while let chunk = try await transfer.next() { received += chunk.count }
        #expect(received == 4 << 20)
        try await client.shutdown()
        try await origin.stop()
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
        let origin = try await ScriptedOrigin.start { request in .answer(ScriptedOrigin.response(body: "\(request.connection)")) }
        let client = client(idleTimeout: .milliseconds(50))
        #expect(try await get(origin.url("/a"), on: client).1 == "0")
        while !origin.hasClosed(0) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try await get(origin.url("/a"), on: client).1 == "1")
        try await client.shutdown()
        try await origin.stop()
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
    @Test func aRequestAskedFromOneOfTheClientsLoopsIsMadeThere() async throws {
        let origin = try await ScriptedOrigin.start { request in .answer(ScriptedOrigin.response(body: "\(request.connection)")) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = Array(group.makeIterator())
        let client = OriginClient(configuration: .init(), group: group)
        let url = origin.url("/a")
        // Each loop keeps its own connection: the second loop's request does not take the first's.
        var answers: [String] = []
        for loop in [loops[0], loops[1], loops[0]] {
            answers.append(
                try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
                    #expect(client.loop(for: url) === loop)
                    return try await get(url, on: client).1
                })
        }
        #expect(answers == ["0", "1", "0"])
        // Asked from elsewhere, a host's requests keep to the one loop it maps to.
        #expect(client.loop(for: url) === client.loop(for: origin.url("/b")))
        try await client.shutdown()
        try await origin.stop()
        try await group.shutdownGracefully()
    }

    @Test func aClientShutDownRefusesRequests() async throws {
        let client = client()
        try await client.shutdown()
        await #expect(throws: OriginClientError.shutDown) {
            _ = try await get(URL(string: "http://127.0.0.1:9/a")!, on: client)
        }
    }

    @Test func endpointsSayTheirHostAndRequestTarget() throws {
        let plain = try #require(OriginEndpoint(URL(string: "http://cdn.example/v/a.mp4?sig=1%2F2")!))
        #expect(plain.hostHeader == "cdn.example" && plain.port == 80 && !plain.isTLS && !plain.isAddressLiteral)
        let secure = try #require(OriginEndpoint(URL(string: "HTTPS://[::1]:8443")!))
        #expect(secure.hostHeader == "[::1]:8443" && secure.host == "::1" && secure.isTLS && secure.isAddressLiteral)
        #expect(OriginEndpoint(URL(string: "https://10.0.0.1/")!)?.isAddressLiteral == true)
        #expect(OriginEndpoint(URL(string: "file:///etc/passwd")!) == nil)
        #expect(OriginEndpoint(URL(string: "http://CDN.Example/a")!) == plain)
        #expect(OriginEndpoint.requestTarget(of: URL(string: "http://cdn.example/v/a.mp4?sig=1%2F2")!) == "/v/a.mp4?sig=1%2F2")
        #expect(OriginEndpoint.requestTarget(of: URL(string: "http://cdn.example")!) == "/")
    }
}

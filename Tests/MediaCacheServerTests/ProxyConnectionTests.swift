import Foundation
import MediaCacheTesting
import NIOCore
import Testing

/// The proxy's own HTTP/1.1 connections: pipelining, `Connection: close`, the request body
/// limit and the headers every answer carries, seen from a raw socket.
@Suite(.timeLimit(.minutes(1))) struct ProxyConnectionTests {
    @Test func pipelinedRequestsAreAnsweredInOrderWithDateAndServer() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 300_000, seed: 8)
            proxy.origin.serve("/a.mp4", content: content)
            _ = try await proxy.request(proxy.proxied("/a.mp4"))
            let path = Self.path(proxy.proxied("/a.mp4"), port: proxy.port)
            let answer = try await Self.exchange(
                port: proxy.port,
                """
                GET \(path) HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n\
                GET \(path) HTTP/1.1\r\nHost: x\r\nRange: bytes=100000-299999\r\n\r\n\
                GET /api/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n
                """)
            let text = String(decoding: answer, as: UTF8.self)
            let statuses = text.matches(of: /HTTP\/1\.1 (\d{3})/).map { String($0.1) }
            #expect(statuses == ["206", "206", "200"], "\(text.prefix(300))")
            #expect(text.matches(of: /\r\nDate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/).count == 3)
            #expect(text.matches(of: /\r\nServer: mediacache\r\n/).count == 3)
            let expected = content.bytes(in: 0..<10) + content.bytes(in: 100_000..<300_000)
            #expect(answer.range(of: expected) == nil, "the two bodies are separated by the second head")
            #expect(answer.range(of: content.bytes(in: 100_000..<300_000)) != nil)
            #expect(answer.range(of: content.bytes(in: 0..<10)) != nil)
        }
    }

    /// On Linux every event loop listens on the proxy's port (`SO_REUSEPORT`) and serves the
    /// connections it accepts, and connections reach them all.
    @Test func everyEventLoopListensOnThePortAndServes() async throws {
        #if os(Linux)
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 1_000, seed: 9)
            proxy.origin.serve("/a.mp4", content: content)
            #expect(Self.listeningSockets(port: proxy.port) == System.coreCount)
            for _ in 0..<16 {
                let answer = try await Self.exchange(port: proxy.port, "GET /api/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            }
            #expect(try await proxy.request(proxy.proxied("/a.mp4")).body == content.bytes(in: 0..<1_000))
        }
        #endif
    }

    /// The sockets listening on `port` on IPv4, from `/proc/net/tcp` (state `0A`).
    static func listeningSockets(port: Int) -> Int {
        // Read to its end: a file of /proc reports no size, and a busy process's table is long.
        let table = String(decoding: FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let local = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "0A"
        }.count
    }

    @Test func aRequestBodyOverTheLimitIsRefusedAndTheConnectionClosed() async throws {
        try await ProxyHarness.run { proxy in
            let body = String(repeating: "x", count: (1 << 20) + 1)
            let answer = try await Self.exchange(
                port: proxy.port,
                """
                POST /api/preload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)
                """)
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200))")
            #expect(text.contains("\r\nConnection: close\r\n") && text.contains("limited to 1048576 bytes"))
            // The server goes on serving other connections.
            #expect(try await proxy.request(proxy.local("api/stats")).status == 200)
        }
    }

    @Test func aClientThatClosesItsSideAfterItsRequestsGetsEveryAnswerWhole() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 3_000_000, seed: 9)
            proxy.origin.serve("/h.mp4", content: content)
            let path = Self.path(proxy.proxied("/h.mp4"), port: proxy.port)
            let port = proxy.port
            // A miss, then a hit of the whole file, both sent before the client closes its side.
            let answer = try await RawClient.onThread { () throws(ConnectionError) in
                let client = try RawClient(port: port)
                defer { client.close() }
                _ = client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nRange: bytes=0-99\r\n\r\nGET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                client.closeSending()
                return client.receiveUntilClosed()
            }
            #expect(answer.closed, "the server closes once both answers are sent")
            let text = String(decoding: answer.bytes.prefix(4096), as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 206"), "\(text.prefix(200))")
            #expect(
                answer.bytes.count > Int(content.length)
                    && answer.bytes.suffix(Int(content.length)) == content.bytes(in: 0..<content.length))
        }
    }

    @Test func aClientThatClosesItsSideInsideARequestBodyGets400AndIsClosed() async throws {
        try await ProxyHarness.run { proxy in
            let port = proxy.port
            let answer = try await RawClient.onThread { () throws(ConnectionError) in
                let client = try RawClient(port: port)
                defer { client.close() }
                _ = client.send("POST /api/preload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"url\":")
                client.closeSending()
                return client.receiveUntilClosed()
            }
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(answer.closed && text.hasPrefix("HTTP/1.1 400 "), "\(text)")
            #expect(text.matches(of: /HTTP\/1\.1/).count == 1, "nothing is answered after the 400")
            #expect(try await proxy.request(proxy.local("api/stats")).status == 200)
        }
    }

    /// The path and query of a proxy URL.
    static func path(_ url: String, port: Int) -> String {
        String(url.dropFirst("http://127.0.0.1:\(port)".count))
    }

    /// Sends `request` on a new connection and reads until the server closes it.
    static func exchange(port: Int, _ request: String) async throws -> Data {
        try await RawClient.onThread { () throws(ConnectionError) in try RawClient.exchange(request, port: port) }
    }
}

struct ConnectionError: Error, CustomStringConvertible {
    let description: String
}

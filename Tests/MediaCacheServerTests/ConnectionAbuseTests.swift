import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// Clients that hold connections without using them: the server bounds each and goes on
/// serving everyone else.
@Suite(.timeLimit(.minutes(1))) struct ConnectionAbuseTests {
    @Test func aClientTricklingItsRequestHeadIsClosedWhileOthersAreServed() async throws {
        try await ProxyHarness.run(configure: { $0.limits.requestTimeout = .milliseconds(300) }) { proxy in
            let (lines, closed) = try await RawClient.onThread { () throws(ConnectionError) in
                let client = try RawClient(port: proxy.port)
                defer { client.close() }
                _ = client.send("GET /api/stats HTTP/1.1\r\nHost: x\r\n")
                // One header line every 100 ms, for up to 10 s.
                for line in 0..<100 {
                    guard client.send("X-Slow-\(line): 1\r\n"), !client.isClosedByServer() else { return (line, true) }
                    usleep(100_000)
                }
                return (100, false)
            }
            #expect(closed && lines < 100, "the server closed the connection after \(lines) lines")
            #expect(try await proxy.request(proxy.local("api/stats")).status == 200)
        }
    }

    @Test func anIdleConnectionIsClosedBeforeAndAfterARequest() async throws {
        // Long enough for a request sent at once to arrive first, even under ThreadSanitizer.
        try await ProxyHarness.run(configure: { $0.limits.idleTimeout = .seconds(1) }) { proxy in
            let (silent, afterAnswer) = try await RawClient.onThread { () throws(ConnectionError) in
                let silent = try RawClient(port: proxy.port)
                defer { silent.close() }
                let keptAlive = try RawClient(port: proxy.port)
                defer { keptAlive.close() }
                _ = keptAlive.send("GET /api/stats HTTP/1.1\r\nHost: x\r\n\r\n")
                return (silent.receiveUntilClosed(), keptAlive.receiveUntilClosed())
            }
            #expect(silent.closed && silent.bytes.isEmpty)
            #expect(afterAnswer.closed && String(decoding: afterAnswer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
    }

    /// Deadlines are times, checked by one timer (``ConnectionWatchdog``): a request deadline
    /// that would have passed after its request arrived closes nothing, and the connection
    /// kept alive after the answer lives until its idle deadline.
    @Test func aKeptAliveConnectionOutlivesItsRequestsDeadlines() async throws {
        try await ProxyHarness.run(configure: {
            $0.limits.requestTimeout = .milliseconds(200)
            $0.limits.idleTimeout = .seconds(3)
        }) { proxy in
            let (first, rest) = try await RawClient.onThread { () throws(ConnectionError) in
                let client = try RawClient(port: proxy.port)
                defer { client.close() }
                _ = client.send("GET /api/stats HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = client.receive(atLeast: 1)
                // Past the first request's deadline, well within the idle one.
                usleep(800_000)
                _ = client.send("GET /api/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return (first, client.receiveUntilClosed())
            }
            #expect(first > 0)
            #expect(rest.closed && String(decoding: rest.bytes, as: UTF8.self).contains("HTTP/1.1 200"), "\(rest.bytes.count) bytes")
        }
    }

    @Test func aClientThatTakesNothingIsClosedAndOneThatReadsSlowlyIsNot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let access = directory.appending("access.log")
        try await ProxyHarness.run(configure: {
            $0.limits.sendTimeout = .seconds(1)
            $0.accessLog = access
        }) { proxy in
            let big = TestOrigin.Content.pattern(length: 32 << 20, seed: 3)
            let small = TestOrigin.Content.pattern(length: 4 << 20, seed: 4)
            proxy.origin.serve("/big.mp4", content: big)
            proxy.origin.serve("/small.mp4", content: small)
            // Cached through the loader, so that the raw clients below are the proxy's only ones.
            for name in ["/big.mp4", "/small.mp4"] {
                for try await _ in proxy.loader.read(proxy.origin.url(name), ByteRequest(offset: 0)) {}
            }
            let bigPath = ProxyConnectionTests.path(proxy.proxied("/big.mp4"), port: proxy.port)
            let smallPath = ProxyConnectionTests.path(proxy.proxied("/small.mp4"), port: proxy.port)
            let (stalled, slow) = try await RawClient.onThread { () throws(ConnectionError) in
                let stalled = try RawClient(port: proxy.port, receiveBuffer: 32 << 10)
                defer { stalled.close() }
                _ = stalled.send("GET \(bigPath) HTTP/1.1\r\nHost: x\r\n\r\n")
                // Takes nothing until the access log shows its response cut short.
                var waited = 0
                while Self.shortResponses(to: "big.mp4", of: 32 << 20, in: access).isEmpty, waited < 300 {
                    usleep(100_000)
                    waited += 1
                }
                let slow = try RawClient(port: proxy.port, receiveBuffer: 64 << 10)
                defer { slow.close() }
                _ = slow.send("GET \(smallPath) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                // 64 KiB every 30 ms: about 2 MB/s, a 4 MiB span takes longer than the timeout.
                return (stalled.receiveUntilClosed(), slow.receiveUntilClosed(chunk: 64 << 10, pause: 30_000))
            }
            #expect(Self.shortResponses(to: "big.mp4", of: 32 << 20, in: access).count == 1, "the access log shows the short count")
            #expect(stalled.closed && stalled.bytes.count < 32 << 20, "\(stalled.bytes.count) bytes")
            #expect(slow.closed && slow.bytes.suffix(4 << 20) == small.bytes(in: 0..<(4 << 20)))
        }
    }

    @Test func connectionsBeyondTheLimitAreRefusedUntilOneCloses() async throws {
        try await ProxyHarness.run(configure: { $0.limits.maxConnections = 2 }) { proxy in
            let (refusal, served) = try await RawClient.onThread { () throws(ConnectionError) in
                let first = try RawClient(port: proxy.port)
                let second = try RawClient(port: proxy.port)
                defer { second.close() }
                let request = "GET /api/stats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                // The two idle connections hold both slots once the server has accepted them.
                var refusal = ""
                for _ in 0..<50 where !refusal.hasPrefix("HTTP/1.1 503") {
                    refusal = try Self.exchange(request, port: proxy.port)
                }
                first.close()
                var served = ""
                for _ in 0..<50 where !served.hasPrefix("HTTP/1.1 200") {
                    served = try Self.exchange(request, port: proxy.port)
                }
                return (refusal, served)
            }
            #expect(refusal.hasPrefix("HTTP/1.1 503") && refusal.contains("2 connections open"), "\(refusal.prefix(300))")
            #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(300))")
        }
    }

    @Test func aRequestWithBothContentLengthAndTransferEncodingIsRefused() async throws {
        try await ProxyHarness.run { proxy in
            let answer = try await RawClient.onThread { () throws(ConnectionError) in
                try Self.exchange(
                    """
                    POST /api/preload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n
                    """, port: proxy.port)
            }
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
            #expect(try await proxy.request(proxy.local("api/stats")).status == 200)
        }
    }

    /// The answer to `request` on a new connection, as text.
    static func exchange(_ request: String, port: Int) throws(ConnectionError) -> String {
        String(decoding: try RawClient.exchange(request, port: port), as: UTF8.self)
    }

    /// The access-log entries for `name` whose bodies ended before all `length` bytes were sent.
    static func shortResponses(to name: String, of length: Int, in log: String) -> [[String]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // date time c-ip cs-method cs-uri sc-status sc-bytes ...
        return ProxyLogTests.entries(text).filter { $0.count > 6 && $0[4].hasSuffix(name) && Int($0[6]).map { $0 < length } == true }
    }
}

/// A blocking loopback client, for tests that need to misbehave at the socket.
struct RawClient {
    private let socket = LoopbackSocket()

    init(port: Int, receiveBuffer: Int32? = nil) throws(ConnectionError) {
        if var size = receiveBuffer {
            setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        socket.setReceiveTimeout(seconds: 20)
        guard socket.connect(port: port) else {
            socket.close()
            throw ConnectionError(description: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    /// Sends `text`; returns whether the connection took all of it.
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Closes the sending side only (a half-close): the server reads the end of the requests.
    func closeSending() {
        shutdown(socket.descriptor, Int32(SHUT_WR))
    }

    /// Whether the server has closed the connection, without waiting.
    func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket.descriptor, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads until the server closes the connection (`closed`) or nothing arrives for 20 s,
    /// at most `chunk` bytes at a time, pausing `pause` microseconds after each read.
    func receiveUntilClosed(chunk: Int = 64 << 10, pause: UInt32 = 0) -> (bytes: Data, closed: Bool) {
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (answer, true) }
            if count < 0 { return (answer, errno == ECONNRESET) }
            answer.append(contentsOf: buffer[..<count])
            if pause > 0 { usleep(pause) }
        }
    }

    /// Reads until at least `count` bytes arrived or the connection ended; returns how many did.
    func receive(atLeast count: Int) -> Int {
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while received < count {
            let read = buffer.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { break }
            received += read
        }
        return received
    }

    func close() {
        socket.close()
    }

    /// Sends `request` on a new connection and reads the answer until the server closes it.
    static func exchange(_ request: String, port: Int) throws(ConnectionError) -> Data {
        let client = try RawClient(port: port)
        defer { client.close() }
        _ = client.send(request)
        return client.receiveUntilClosed().bytes
    }

    /// Runs blocking socket work on a thread of its own, off Swift's cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws(ConnectionError) -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { () throws(ConnectionError) in try work() })
            }
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheTesting
import NIOCore
import Testing
@testable import MediaCacheServer

/// Cache hits leave the proxy as spans of the data file (`sendfile`), switching to network
/// bytes where the cache has a gap, and the logs and statistics count them as before.
@Suite(.timeLimit(.minutes(2))) struct FileSpanServingTests {
    static let length = 3 << 20

    @Test(arguments: [true, false])
    func aCachedResponseIsSentFromTheDataFileWithoutReadingIt(sendsFiles: Bool) async throws {
        let files = FaultyFileSystem(sendsFiles: sendsFiles)
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let access = logs.appending("access.log")
        try await ProxyHarness.run(configure: { $0.accessLog = access }, storing: { $0.fileSystem = files }) { proxy in
            let content = TestOrigin.Content.pattern(length: Int64(Self.length), seed: 3)
            proxy.origin.serve("/a.mp4", content: content)
            let expected = content.bytes(in: 0..<Int64(Self.length))
            let cold = try await proxy.request(proxy.proxied("/a.mp4"))
            #expect(cold.body == expected)
            let readBefore = files.bytesRead(pathContaining: "/data/")

            let warm = try await proxy.request(proxy.proxied("/a.mp4"))
            #expect(warm.status == 200 && warm.body == expected)
            let range = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=1000-2500000")])
            #expect(range.status == 206 && range.body == expected[1000...2_500_000])
            #expect(range.headers["content-range"] == "bytes 1000-2500000/\(Self.length)")
            let read = files.bytesRead(pathContaining: "/data/") - readBefore
            // Without descriptors to send, every byte is read into memory once, as before.
            #expect(read == (sendsFiles ? 0 : Int64(Self.length + 2_499_001)), "read \(read) bytes back")
        }
        let logged = ProxyLogTests.entries(try String(contentsOfFile: access, encoding: .utf8))
        #expect(logged.count == 3)
        #expect(Array(logged[1][5...8]) == ["200", "\(Self.length)", "\(Self.length)", "0"])
        #expect(Array(logged[2][5...8]) == ["206", "2499001", "2499001", "0"])
    }

    @Test func aPartlyCachedResponseSwitchesBetweenFileSpansAndTheNetwork() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let access = logs.appending("access.log")
        try await ProxyHarness.run(configure: { $0.accessLog = access }) { proxy in
            let content = TestOrigin.Content.pattern(length: Int64(Self.length), seed: 4)
            proxy.origin.serve("/a.mp4", content: content)
            let expected = content.bytes(in: 0..<Int64(Self.length))
            let cached = [(100_000, 899_999), (2_000_000, 2_099_999)]
            for (first, last) in cached {
                let part = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=\(first)-\(last)")])
                #expect(part.body == expected[first...last])
            }
            let whole = try await proxy.request(proxy.proxied("/a.mp4"))
            #expect(whole.status == 200 && whole.body == expected)
        }
        let logged = ProxyLogTests.entries(try String(contentsOfFile: access, encoding: .utf8))
        let fromCache = 800_000 + 100_000
        #expect(Array(logged[2][5...8]) == ["200", "\(Self.length)", "\(fromCache)", "\(Self.length - fromCache)"])
    }

    @Test func clientsThatLeaveMidResponseLeaveNoDataFileOpen() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 32 << 20, seed: 5)
            proxy.origin.serve("/big.mp4", content: content)
            _ = try await proxy.request(proxy.proxied("/big.mp4"))
            let client = RangeClient(port: proxy.port)
            let path = String(proxy.proxied("/big.mp4").dropFirst("http://127.0.0.1:\(proxy.port)".count))
            for stop in [1, 100_000, 5_000_000, 20_000_000] {
                let read = try await client.read(path, stopAfter: Int64(stop))
                #expect(read == Int64(stop), "stopped after \(stop), read \(read)")
            }
            // Every span's descriptor is closed once its connection is; the store keeps one.
            let deadline = ContinuousClock.now + .seconds(20)
            while Self.openDescriptors(under: proxy.directory.path + "/data/") > 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(Self.openDescriptors(under: proxy.directory.path + "/data/") <= 1)
        }
    }

    /// A cached response leaves as one span, but counts (in its access-log line and the
    /// statistics) only the bytes that left before its client went away.
    @Test func aClientThatLeavesEarlyIsCountedForWhatLeftNotForTheWholeSpan() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let access = logs.appending("access.log")
        let length = 64 << 20
        try await ProxyHarness.run(configure: { $0.accessLog = access }) { proxy in
            proxy.origin.serve("/film.mp4", content: TestOrigin.Content.pattern(length: Int64(length), seed: 6))
            for try await _ in proxy.loader.read(proxy.origin.url("/film.mp4"), ByteRequest(offset: 0)) {}
            let before = proxy.loader.statistics.bytesFromCache
            let path = ProxyConnectionTests.path(proxy.proxied("/film.mp4"), port: proxy.port)
            let received = try await RawClient.onThread { () throws(ConnectionError) in
                let client = try RawClient(port: proxy.port, receiveBuffer: 64 << 10)
                defer { client.close() }
                _ = client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                return client.receive(atLeast: 1 << 20)
            }
            #expect(received >= 1 << 20)
            // The server finds the client gone at its next write, and logs the response.
            let deadline = ContinuousClock.now + .seconds(20)
            while ConnectionAbuseTests.shortResponses(to: "film.mp4", of: length, in: access).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let line = try #require(ConnectionAbuseTests.shortResponses(to: "film.mp4", of: length, in: access).first)
            let sent = try #require(Int(line[6]))
            // What left: the megabyte read, the sockets' buffers, at most a part more.
            #expect(sent >= 1 << 20 && sent < 16 << 20, "logged \(sent) bytes sent")
            #expect(line[7] == line[6], "every byte sent came from the cache")
            let served = proxy.loader.statistics.bytesFromCache - before
            #expect(served == Int64(sent), "statistics count \(served) bytes served from the cache")
        }
    }

    @Test func aResponseTheCacheHoldsWholeLeavesAsOneSpan() {
        var cached = ByteRangeSet()
        cached.insert(ByteRange(0, 6_000))
        cached.insert(ByteRange(7_000, 10_000))
        func first(_ bytes: ByteRequest) -> Int64 {
            ProxyResponder.firstFileSpan(of: bytes, cached: cached, totalLength: 10_000)
        }
        #expect(first(ByteRequest(offset: 100, length: 5_900)) == 5_900)
        #expect(first(ByteRequest(offset: 7_000)) == 3_000)
        #expect(first(ByteRequest(offset: 8_000, length: 50_000)) == 2_000, "a range past the end ends at the resource's")
        #expect(first(ByteRequest(offset: 0)) == ProxyResponder.firstFileSpan, "a gap follows")
        #expect(first(ByteRequest(offset: 0, length: 6_001)) == ProxyResponder.firstFileSpan)
        #expect(first(ByteRequest(offset: 10_000)) == ProxyResponder.firstFileSpan)
        #expect(ProxyResponder.firstFileSpan(of: ByteRequest(offset: 0, length: 100), cached: cached, totalLength: nil) == 100)
        #expect(
            ProxyResponder.firstFileSpan(of: ByteRequest(offset: 0), cached: cached, totalLength: nil) == ProxyResponder.firstFileSpan,
            "an unknown length may go on past what is cached")
    }

    @Test func aWriterThatCannotSendFilesGetsTheSpanInBuffers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try MediaStore.open(at: directory.path)
        defer { try? store.close() }
        let url = URL(string: "https://cdn.example/a.mp4")!
        let bytes = Data((0..<(600 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let generation = try store.setContentInfo(ContentInfo(totalLength: Int64(bytes.count)), for: url)
        try store.write(bytes, at: 0, to: store.key(for: url), generation: generation)
        let span = try #require(try store.fileSpan(ByteRange(1000, Int64(bytes.count)), of: store.key(for: url)))

        let collected = CollectedBody()
        var writer: any ResponseBodyWriter = CollectingWriter(body: collected)
        try await FileSpans.write(FileChunk(span: span, source: .cache), to: &writer)
        #expect(collected.data == bytes[1000...])
        #expect(collected.writes.allSatisfy { $0 <= FileSpans.bufferSize } && collected.writes.count == 3)
    }

    /// The descriptors of this process open on files under `directory`.
    static func openDescriptors(under directory: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry))?.hasPrefix(directory) == true
        }.count
    }
}

/// What a ``CollectingWriter`` was given.
private final class CollectedBody {
    var data = Data()
    var writes: [Int] = []
}

/// A body writer with no file support, as any Hummingbird writer.
private struct CollectingWriter: ResponseBodyWriter {
    let body: CollectedBody

    func write(_ buffer: ByteBuffer) async throws {
        body.data.append(contentsOf: buffer.readableBytesView)
        body.writes.append(buffer.readableBytes)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

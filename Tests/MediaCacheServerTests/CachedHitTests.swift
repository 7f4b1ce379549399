import Foundation
import MediaCache
import MediaCacheTesting
import NIOCore
import NIOHTTP1
import Testing
@testable import MediaCacheServer

/// Cache hits answered at once, from the connection's event loop (``CachedHitResponder``):
/// only a `GET` the cache holds whole is, and it gets the answer the Hummingbird responders
/// give, with the same access rules, headers, log lines and statistics.
@Suite(.timeLimit(.minutes(2))) struct CachedHitTests {
    static let origin = URL(string: "http://cdn.example/a.mp4")!
    static let length = 300_000

    /// A store holding the first two thirds of ``origin`` (or `firstBytes` and the rest of
    /// them from `offset`), and a responder over it.
    private struct Fixture {
        let directory: TemporaryDirectory
        let store: MediaStore
        let responder: CachedHitResponder

        init(token: String? = nil, allowedHosts: HostAllowList? = nil, mimeType: String = "video/mp4",
             origin: URL = CachedHitTests.origin, firstBytes: Data = Data(), from offset: Int64 = 0) throws {
            directory = try TemporaryDirectory()
            store = try MediaStore.open(at: directory.path)
            let info = ContentInfo(totalLength: Int64(CachedHitTests.length), mimeType: mimeType, etag: "\"v1\"")
            let generation = try store.setContentInfo(info, for: origin)
            let bytes = firstBytes + Data(repeating: 7, count: 200_000 - firstBytes.count)
            try store.write(bytes.dropFirst(Int(offset)), at: offset, to: store.key(for: origin), generation: generation)
            let loader = MediaLoader(store: store, origin: ProxyServerTests.NeverOrigin())
            responder = CachedHitResponder(access: ProxyAccess(token: token, limits: .init()), allowedHosts: allowedHosts,
                                           loader: loader, targets: ProxyTargets(), log: ProxyLog(access: nil, errors: nil))
        }

        func hit(_ target: String, method: HTTPMethod = .GET, _ headers: [(String, String)] = []) -> CachedHitResponder.Hit? {
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: target)
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            return responder.hit(head, client: nil)
        }

        func remove() {
            try? store.close()
            directory.remove()
        }
    }

    @Test func onlyAGetOfCachedBytesIsAnsweredAtOnce() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let path = "/http/cdn.example/a.mp4"
        let range = try #require(fixture.hit(path, [("Range", "bytes=100-199")]))
        #expect(range.head.status == .partialContent)
        #expect(range.head.headers["Content-Range"] == ["bytes 100-199/300000"])
        #expect(range.head.headers["Content-Length"] == ["100"])
        #expect(range.head.headers["Content-Type"] == ["video/mp4"] && range.head.headers["ETag"] == ["\"v1\""])
        #expect(range.chunk.span.offset == 100 && range.chunk.span.length == 100 && range.chunk.source == .cache)

        #expect(fixture.hit(path) == nil, "the whole resource: its last third is a gap")
        #expect(fixture.hit(path, [("Range", "bytes=150000-250000")]) == nil, "a range that runs into the gap")
        #expect(fixture.hit(path, method: .HEAD, [("Range", "bytes=0-9")]) == nil)
        #expect(fixture.hit(path, [("Range", "bytes=400000-")]) == nil, "a 416")
        #expect(fixture.hit("/http/cdn.example/b.mp4", [("Range", "bytes=0-9")]) == nil, "nothing stored")
        #expect(fixture.hit("/api/entries") == nil)
        // Two lines of Range are one list, as the other path reads them: several ranges,
        // answered whole, and the whole is not cached.
        #expect(fixture.hit(path, [("Range", "bytes=0-9"), ("Range", "bytes=20-29")]) == nil)
        // If-Range that does not match asks for the whole resource.
        #expect(fixture.hit(path, [("Range", "bytes=0-9"), ("If-Range", "\"v0\"")]) == nil)
        #expect(fixture.hit(path, [("Range", "bytes=0-9"), ("If-Range", "\"v1\"")]) != nil)
    }

    @Test func theTokenAndTheAllowListHoldForHits() throws {
        let tokened = try Fixture(token: "s3cret-token")
        defer { tokened.remove() }
        let range = [("Range", "bytes=0-9")]
        #expect(tokened.hit("/http/cdn.example/a.mp4", range) == nil, "without the token: the other path answers 401")
        #expect(tokened.hit("/t/wrong-token/http/cdn.example/a.mp4", range) == nil)
        let prefixed = try #require(tokened.hit("/t/s3cret-token/http/cdn.example/a.mp4", range))
        #expect(prefixed.entry.target == "/t/-/http/cdn.example/a.mp4", "the log never shows the token")
        #expect(tokened.hit("/http/cdn.example/a.mp4", range + [("Authorization", "Bearer s3cret-token")]) != nil)

        let listed = try Fixture(allowedHosts: try HostAllowList(["other.example"]))
        defer { listed.remove() }
        #expect(listed.hit("/http/cdn.example/a.mp4", range) == nil, "a host beyond the list: the other path answers 403")
    }

    @Test func aPlaylistIsNeverAnsweredAtOnce() throws {
        let typed = try Fixture(mimeType: "application/vnd.apple.mpegurl")
        defer { typed.remove() }
        #expect(typed.hit("/http/cdn.example/a.mp4", [("Range", "bytes=0-9")]) == nil)
        // A small resource of a generic type whose path names no media file: only its first
        // line tells.
        let list = URL(string: "http://cdn.example/list")!
        let playlist = try Fixture(mimeType: "text/plain", origin: list, firstBytes: Data("#EXTM3U\n".utf8))
        defer { playlist.remove() }
        #expect(playlist.hit("/http/cdn.example/list", [("Range", "bytes=100-109")]) == nil)
        let uncached = try Fixture(mimeType: "text/plain", origin: list, from: 100)
        defer { uncached.remove() }
        #expect(uncached.hit("/http/cdn.example/list", [("Range", "bytes=100-109")]) == nil,
                "its first line is not cached: the other path reads it")
    }

    /// A file served as `application/octet-stream` from a path without an extension, as a
    /// signed object URL is, whose cached first line is no playlist's: a hit like any other.
    @Test func aFileOfAGenericTypeIsAnsweredAtOnceOnceItsFirstLineIsCached() throws {
        let fixture = try Fixture(mimeType: "application/octet-stream", origin: URL(string: "http://cdn.example/objects/9f2c")!)
        defer { fixture.remove() }
        let hit = try #require(fixture.hit("/http/cdn.example/objects/9f2c", [("Range", "bytes=100-199")]))
        #expect(hit.head.status == .partialContent && hit.head.headers["Content-Type"] == ["application/octet-stream"])
        #expect(hit.chunk.span.offset == 100 && hit.chunk.span.length == 100)
    }

    /// The same requests, against a proxy whose store has descriptors to send (hits answered
    /// at once) and one whose store has none (every answer from the Hummingbird responders):
    /// the same statuses, headers and bodies, the same log lines and statistics. For a media
    /// file, and for a file of a generic type whose path names none (its first line tells).
    @Test(arguments: [("/a.mp4", "video/mp4"), ("/objects/9f2c", "application/octet-stream")])
    func aHitAnsweredAtOnceIsTheAnswerOfTheOtherPath(path: String, mimeType: String) async throws {
        let content = TestOrigin.Content.pattern(length: Int64(Self.length), seed: 31, mimeType: mimeType)
        let requests: [[(String, String)]] = [
            [], [("Range", "bytes=1000-1999")], [("Range", "bytes=-500")], [("Range", "bytes=299990-")],
            [("Range", "bytes=0-9"), ("If-Range", "\"stale\"")], [("Range", "bytes=5-4")], [("Connection", "close")],
        ]
        var answers: [[(status: Int, headers: [String: String], body: Data)]] = []
        var lines: [[[String]]] = []
        var served: [Int64] = []
        for sendsFiles in [true, false] {
            let logs = try TemporaryDirectory()
            defer { logs.remove() }
            let access = logs.appending("access.log")
            try await ProxyHarness.run(configure: { $0.accessLog = access },
                                       storing: { $0.fileSystem = FaultyFileSystem(sendsFiles: sendsFiles) }) { proxy in
                proxy.origin.serve(path, content: content)
                _ = try await proxy.request(proxy.proxied(path))
                let before = proxy.loader.statistics.bytesFromCache
                var these: [(status: Int, headers: [String: String], body: Data)] = []
                for headers in requests {
                    var answer = try await proxy.request(proxy.proxied(path), headers: headers)
                    answer.headers["date"] = nil
                    these.append((answer.status, answer.headers, answer.body))
                }
                answers.append(these)
                served.append(proxy.loader.statistics.bytesFromCache - before)
            }
            // The method, status and byte counts are the same; the date, time, time taken and
            // the origin's port in the target are not.
            lines.append(ProxyLogTests.entries(try String(contentsOfFile: access, encoding: .utf8)).map { [$0[3]] + $0[5 ... 8] })
        }
        for (index, (once, other)) in zip(answers[0], answers[1]).enumerated() {
            #expect(once.status == other.status, "request \(index)")
            #expect(once.headers == other.headers, "request \(index)")
            #expect(once.body == other.body, "request \(index)")
        }
        #expect(answers[0][1].body == content.bytes(in: 1000..<2000))
        #expect(lines[0] == lines[1])
        #expect(served[0] == served[1] && served[0] > 0)
    }
}


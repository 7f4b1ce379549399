import Foundation
import MediaCache
import MediaCacheHLS
import MediaCacheServer
import MediaCacheTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct ProxyServerTests {
    @Test func servesByteExactBodiesAndReplaysThemFromTheCache() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 1_500_000, seed: 11)
            proxy.origin.serve("/v/a.mp4", content: content)
            let first = try await proxy.request(proxy.proxied("/v/a.mp4"))
            #expect(first.status == 200)
            #expect(Bytes(first.body) == Bytes(content.bytes(in: 0..<1_500_000)))
            #expect(first.headers["content-length"] == "1500000")
            #expect(first.headers["content-type"] == "video/mp4")
            #expect(first.headers["accept-ranges"] == "bytes")
            #expect(first.headers["etag"] == content.etag)
            let sent = proxy.origin.bytesSent(for: "/v/a.mp4")

            try await proxy.origin.stop()
            let offline = try await proxy.request(proxy.proxied("/v/a.mp4"))
            #expect(Bytes(offline.body) == Bytes(first.body), "replayed with the origin stopped")
            #expect(sent <= 1_500_000 + 2)
        }
    }

    @Test(
        arguments: [
            ("bytes=100-199", 100, 199), ("bytes=1400000-", 1_400_000, 1_499_999), ("bytes=-500", 1_499_500, 1_499_999),
        ] as [(String, Int64, Int64)])
    func rangesGetExactPartialContent(_ range: String, _ first: Int64, _ last: Int64) async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 1_500_000, seed: 12)
            proxy.origin.serve("/a.mp4", content: content)
            let answer = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", range)])
            #expect(answer.status == 206)
            #expect(answer.headers["content-range"] == "bytes \(first)-\(last)/1500000")
            #expect(answer.headers["content-length"] == "\(last - first + 1)")
            #expect(Bytes(answer.body) == Bytes(content.bytes(in: first..<(last + 1))))
        }
    }

    @Test func headUnsatisfiableRangesAndIfRange() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 10_000, seed: 13)
            proxy.origin.serve("/a.mp4", content: content)
            let head = try await proxy.request(proxy.proxied("/a.mp4"), method: .HEAD)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "10000")
            #expect(head.body.isEmpty)
            let beyond = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=10000-")])
            #expect(beyond.status == 416)
            #expect(beyond.headers["content-range"] == "bytes */10000")
            let stale = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=0-9"), ("If-Range", "\"old\"")])
            #expect(stale.status == 200)
            #expect(Bytes(stale.body) == Bytes(content.bytes(in: 0..<10_000)))
        }
    }

    @Test func originErrorsReachTheClientHonestlyAndAreNotCached() async throws {
        try await ProxyHarness.run { proxy in
            let missing = try await proxy.request(proxy.proxied("/missing.mp4"))
            #expect(missing.status == 404)
            proxy.origin.serve("/down.mp4", content: .pattern(length: 100, seed: 1))
            proxy.origin.setMisbehavior(.init(failsFirst: 1_000), for: "/down.mp4")
            let down = try await proxy.request(proxy.proxied("/down.mp4"))
            #expect(down.status == 503)
            let entries = try proxy.store.entries()
            #expect(entries.isEmpty)
            let notProxied = try await proxy.request("http://127.0.0.1:\(proxy.port)/file/etc/passwd")
            #expect(notProxied.status == 400)
        }
    }

    @Test func anOriginThatDiesMidBodyGivesAShortResponseNeverWrongBytes() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 2_000_000, seed: 14)
            proxy.origin.serve("/a.mp4", content: content)
            _ = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=0-1")])
            proxy.origin.setMisbehavior(.init(bytesPerSecond: 1_000_000), for: "/a.mp4")
            let task = Task { try await proxy.request(proxy.proxied("/a.mp4")) }
            try await Task.sleep(for: .milliseconds(300))
            try await proxy.origin.stop()
            let answer = try await task.value
            #expect(answer.body.count < 2_000_000)
            #expect(Bytes(answer.body) == Bytes(content.bytes(in: 0..<Int64(answer.body.count))))
        }
    }

    @Test func theProxyRefusesToListenBeyondLoopback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try MediaStore.open(at: directory.path)
        defer { try? store.close() }
        let engine = CacheEngine(loader: MediaLoader(store: store, origin: NeverOrigin()))
        for host in ["0.0.0.0", "192.168.1.10", "::"] {
            #expect(throws: ProxyServerError.self, "\(host)") {
                _ = try ProxyServer(engine: engine, configuration: .init(host: host, port: 0))
            }
        }
    }

    struct NeverOrigin: MediaOrigin {
        func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
            throw OriginError.transport("not used", url: request.url)
        }
    }
}

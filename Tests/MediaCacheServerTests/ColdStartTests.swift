import AsyncHTTPClient
import Foundation
import MediaCache
import MediaCacheServer
import MediaCacheTesting
import NIOFoundationCompat
import Testing

/// A `GET` for a resource nothing is known of costs one origin round trip: the read starts at
/// once and the answer is planned from that read's own response, without a probe first.
@Suite(.timeLimit(.minutes(2))) struct ColdStartTests {
    static let length: Int64 = 1_000_000

    func ranges(_ proxy: ProxyHarness, _ path: String) -> [String] {
        proxy.origin.requests(for: path).map { "\($0.method) \($0.range ?? "-")" }
    }

    /// The length `GET bytes=a-b` asks for.
    func requestedLength(_ request: String?) -> Int64? {
        guard let spec = request?.split(separator: "=").last else { return nil }
        let bounds = spec.split(separator: "-").compactMap { Int64($0) }
        return bounds.count == 2 ? bounds[1] - bounds[0] + 1 : nil
    }

    @Test(
        arguments: [
            (nil, 200, 0, length - 1), ("bytes=0-", 206, 0, length - 1), ("bytes=300000-", 206, 300_000, length - 1),
            ("bytes=100-199", 206, 100, 199), ("bytes=999990-2000000", 206, 999_990, length - 1),
        ] as [(String?, Int, Int64, Int64)])
    func aColdGetAsksTheOriginOnceForTheBytesItServes(_ range: String?, _ status: Int, _ first: Int64, _ last: Int64) async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 41)
            proxy.origin.serve("/a.mp4", content: content)
            let answer = try await proxy.request(proxy.proxied("/a.mp4"), headers: range.map { [("Range", $0)] } ?? [])
            #expect(answer.status == status)
            #expect(Bytes(answer.body) == Bytes(content.bytes(in: first..<(last + 1))))
            #expect(answer.headers["content-length"] == "\(last - first + 1)")
            if status == 206 { #expect(answer.headers["content-range"] == "bytes \(first)-\(last)/\(Self.length)") }
            #expect(answer.headers["etag"] == content.etag)
            let requests = ranges(proxy, "/a.mp4")
            #expect(requests.first?.hasPrefix("GET bytes=\(first)-") == true, "\(requests)")
            #expect(!requests.contains("GET bytes=0-1") && !requests.contains { $0.hasPrefix("HEAD") }, "\(requests)")
        }
    }

    /// The head leaves once the origin's answer is recorded: a miss's time to first byte does
    /// not include the data file's creation or the body's first chunk.
    @Test func aMissSendsItsHeadWhileTheOriginStillHoldsTheBody() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 45)
            proxy.origin.serve("/held.mp4", content: content)
            proxy.origin.setMisbehavior(.init(holdsBodies: true), for: "/held.mp4")
            // Released after a minute whatever happens, so that a proxy that waits for the body
            // fails this test instead of hanging it (the parallel suite can starve a test for
            // twenty seconds).
            let isReleased = Locked(false)
            let release = Task {
                try? await Task.sleep(for: .seconds(60))
                isReleased.withLock { $0 = true }
                proxy.origin.releaseBodies(of: "/held.mp4")
            }
            defer { release.cancel() }
            var request = HTTPClientRequest(url: proxy.proxied("/held.mp4"))
            request.headers.add(name: "Range", value: "bytes=100-")
            let response = try await proxy.client.execute(request, timeout: .seconds(30))
            #expect(!isReleased.withLock { $0 }, "the head waited for the body")
            #expect(response.status == .partialContent)
            #expect(response.headers["Content-Range"].first == "bytes 100-\(Self.length - 1)/\(Self.length)")
            #expect(response.headers["ETag"].first == content.etag)
            #expect(proxy.origin.bytesSent(for: "/held.mp4") == 0)

            proxy.origin.releaseBodies(of: "/held.mp4")
            var body = Data()
            for try await buffer in response.body { body.append(Data(buffer: buffer)) }
            #expect(Bytes(body) == Bytes(content.bytes(in: 100..<Self.length)))
            let requests = ranges(proxy, "/held.mp4")
            #expect(requests.first?.hasPrefix("GET bytes=100-") == true && !requests.contains("GET bytes=0-1"), "\(requests)")
        }
    }

    /// A miss's head leaves before the store creates the resource; when the store then fails
    /// (here it is closed under the response), the body comes from the origin uncached.
    @Test func aMissWhoseResourceTheStoreCannotCreateAfterItsHeadLeftComesFromTheOrigin() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 46)
            proxy.origin.serve("/lost.mp4", content: content)
            proxy.origin.setMisbehavior(.init(holdsBodies: true), for: "/lost.mp4")
            let release = Task {
                try? await Task.sleep(for: .seconds(60))
                proxy.origin.releaseBodies(of: "/lost.mp4")
            }
            defer { release.cancel() }
            let response = try await proxy.client.execute(HTTPClientRequest(url: proxy.proxied("/lost.mp4")), timeout: .seconds(30))
            #expect(response.status == .ok && response.headers["Content-Length"].first == "\(Self.length)")

            try proxy.store.close()
            proxy.origin.setMisbehavior(.init(), for: "/lost.mp4")
            proxy.origin.releaseBodies(of: "/lost.mp4")
            var body = Data()
            for try await buffer in response.body { body.append(Data(buffer: buffer)) }
            #expect(Bytes(body) == Bytes(content.bytes(in: 0..<Self.length)))
        }
    }

    @Test func aClientThatAsksForAWholeResponseGetsTheLargestLeadOnceItTookItsFirstBytes() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 8 << 20, seed: 44)
            proxy.origin.serve("/whole.mp4", content: content)
            proxy.origin.serve("/player.mp4", content: content)
            let whole = try await proxy.request(proxy.proxied("/whole.mp4"))
            let player = try await proxy.request(proxy.proxied("/player.mp4"), headers: [("Range", "bytes=0-")])
            #expect(Bytes(whole.body) == Bytes(content.bytes(in: 0..<(8 << 20))))
            #expect(Bytes(player.body) == Bytes(content.bytes(in: 0..<(8 << 20))))
            // Both start with the initial lead, so the first bytes come as fast; once they are
            // taken, the whole response's next request asks for the largest lead.
            let initial = MediaLoader.Configuration().initialReadahead, readahead = MediaLoader.Configuration().readahead
            let wholeRequests = ranges(proxy, "/whole.mp4"), playerRequests = ranges(proxy, "/player.mp4")
            let first = "GET bytes=0-\(initial - 1)"
            #expect(wholeRequests.first == first && playerRequests.first == first, "\(wholeRequests) \(playerRequests)")
            let wholeSecond: Int64 = requestedLength(wholeRequests.dropFirst().first) ?? 0
            let playerSecond: Int64 = requestedLength(playerRequests.dropFirst().first) ?? .max
            #expect(wholeSecond > readahead / 2, "\(wholeRequests)")
            // A player's lead grows with what it took (and doubles after a slow answer, as on
            // a loaded machine): a fraction of the largest lead.
            #expect(playerSecond <= readahead / 4, "\(playerRequests)")
            #expect(proxy.origin.bytesSent(for: "/whole.mp4") == 8 << 20 && proxy.origin.bytesSent(for: "/player.mp4") == 8 << 20)
        }
    }

    @Test func answersThatNeedTheLengthOrValidatorsFirstStillProbe() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 42)
            proxy.origin.serve("/suffix.mp4", content: content)
            proxy.origin.serve("/if-range.mp4", content: content)
            let suffix = try await proxy.request(proxy.proxied("/suffix.mp4"), headers: [("Range", "bytes=-500")])
            #expect(suffix.status == 206)
            #expect(Bytes(suffix.body) == Bytes(content.bytes(in: (Self.length - 500)..<Self.length)))
            #expect(ranges(proxy, "/suffix.mp4").first == "GET bytes=0-1")

            let stale = try await proxy.request(proxy.proxied("/if-range.mp4"), headers: [("Range", "bytes=0-9"), ("If-Range", "\"old\"")])
            #expect(stale.status == 200)
            #expect(Bytes(stale.body) == Bytes(content.bytes(in: 0..<Self.length)))
            #expect(ranges(proxy, "/if-range.mp4").first == "GET bytes=0-1")
        }
    }

    @Test func aRangePastTheEndIsRefusedAndAMissingResourcePassesItsStatusOnce() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 10_000, seed: 43))
            let beyond = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=10000-")])
            #expect(beyond.status == 416)
            #expect(beyond.headers["content-range"] == "bytes */10000")
            #expect(try proxy.store.record(for: proxy.store.key(for: proxy.origin.url("/a.mp4")))?.contentInfo.totalLength == 10_000)

            let missing = try await proxy.request(proxy.proxied("/missing.mp4"), headers: [("Range", "bytes=0-")])
            #expect(missing.status == 404)
            #expect(ranges(proxy, "/missing.mp4").count == 1, "\(ranges(proxy, "/missing.mp4"))")
        }
    }

    @Test func anOriginThatGivesNoLengthGetsTheWholeBodyFromTheStart() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: 300_000, seed: 44)
            proxy.origin.serve("/live.mp4", content: content)
            proxy.origin.setMisbehavior(.init(ignoresRange: true, chunked: true), for: "/live.mp4")
            // Without a length no honest Content-Range can be written: the whole body, chunked.
            let answer = try await proxy.request(proxy.proxied("/live.mp4"), headers: [("Range", "bytes=1000-")])
            #expect(answer.status == 200)
            #expect(Bytes(answer.body) == Bytes(content.bytes(in: 0..<300_000)))
        }
    }
}

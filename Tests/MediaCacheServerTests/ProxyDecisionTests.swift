import Foundation
import HTTPTypes
import Testing
@testable import MediaCache
@testable import MediaCacheServer

/// The proxy's one decision per request (``ProxyRules``), from a request's head and what the
/// store holds: no socket, no store, no task.
@Suite(.timeLimit(.minutes(2))) struct ProxyDecisionTests {
    static let clip = URL(string: "http://cdn.example/a.mp4")!
    static let path = "/http/cdn.example/a.mp4"

    /// Records and first bytes held in memory, as the decision reads them.
    struct Stored: StoredResources {
        var records: [URL: ResourceRecord] = [:]
        var firstBytes: [ResourceKey: Data] = [:]

        /// Holds `cached` of a resource of 300,000 bytes of `mimeType`, whose first bytes are `first`.
        init(
            _ url: URL = ProxyDecisionTests.clip, mimeType: String = "video/mp4", cached: ByteRangeSet = [ByteRange(0, 200_000)],
            first: Data = Data(repeating: 7, count: 16)
        ) {
            let key = ResourceKey(url.absoluteString)
            records[url] = ResourceRecord(
                key: key, url: url.absoluteString,
                contentInfo: ContentInfo(totalLength: 300_000, mimeType: mimeType, etag: "\"v1\""),
                generation: Generation(1), isPinned: false, available: cached)
            firstBytes[key] = first
        }

        func storedRecord(for url: URL) -> ResourceRecord? { records[url] }

        func cachedBytes(_ range: ByteRange, of record: ResourceRecord) -> Data? {
            guard record.available.contains(range) else { return nil }
            return firstBytes[record.key].map { Data($0.prefix(Int(range.upperBound))) }
        }
    }

    static func decide(
        _ target: String, method: HTTPRequest.Method = .get, _ fields: [(String, String)] = [],
        stored: Stored = Stored(), token: String? = nil, allowedHosts: HostAllowList? = nil,
        limits: ProxyAccess.Limits = .init(), cors: CORSAllowList? = nil
    ) -> ProxyDecision {
        let rules = ProxyRules(
            access: ProxyAccess(token: token, limits: limits), allowedHosts: allowedHosts,
            targets: ProxyTargets(), hasMetrics: false, cors: cors)
        return rules.decide(
            ProxyRequestHead(method: method, target: target, fields: fields.map { (name: $0.0, value: $0.1) }),
            stored: stored)
    }

    /// What a decision comes to, in a few words a table can hold.
    static func summary(_ decision: ProxyDecision) -> String {
        switch decision {
        case .reject(let refusal): "reject \(refusal.status.code)"
        case .preflight: "preflight"
        case .endpoint(let target): "endpoint \(target)"
        case .resource(_, .hit(_, let plan, let range)): "hit \(plan.status) \(range.lowerBound)-\(range.upperBound)"
        case .resource(_, .stream(_, let plan)): "stream \(plan.status)"
        case .resource(_, .playlist): "playlist"
        case .resource(_, .fetch(let known)): known == nil ? "fetch" : "fetch known"
        case .resource(_, .relay): "relay"
        }
    }

    @Test(arguments: [
        (method: "GET", fields: [("Range", "bytes=100-199")], expected: "hit 206 100-200"),
        ("GET", [], "stream 200"),  // the last third is a gap
        ("GET", [("Range", "bytes=150000-250000")], "stream 206"),  // runs into the gap
        ("GET", [("Range", "bytes=-500")], "stream 206"),  // the last bytes are a gap
        ("HEAD", [("Range", "bytes=0-9")], "stream 206"),  // a head has no bytes to send
        ("GET", [("Range", "bytes=400000-")], "stream 416"),
        ("GET", [("Range", "bytes=0-9"), ("Range", "bytes=20-29")], "stream 200"),  // two lines are one list: the whole
        ("GET", [("Range", "bytes=0-9"), ("If-Range", "\"v0\"")], "stream 200"),  // another version: the whole
        ("GET", [("Range", "bytes=0-9"), ("If-Range", "\"v1\"")], "hit 206 0-10"),
    ])
    func aStoredResourceIsAHitOnlyWhenEveryByteOfAGetIsCached(method: String, fields: [(String, String)], expected: String) {
        let decision = Self.decide(Self.path, method: HTTPRequest.Method(rawValue: method)!, fields)
        #expect(Self.summary(decision) == expected)
    }

    @Test func whatTheStoreDoesNotHoldIsFetched() {
        #expect(Self.summary(Self.decide("/http/cdn.example/b.mp4")) == "fetch")
        #expect(Self.summary(Self.decide("/http/cdn.example/b.mp4", method: .head)) == "fetch")
    }

    @Test func aPreflightIsAnsweredForAnAllowedPageOnlyAndBeforeTheToken() throws {
        let cors = try CORSAllowList(["https://app.example", "http://127.0.0.1:8123"])
        let preflight = [
            ("Origin", "https://app.example"), ("Access-Control-Request-Method", "GET"),
            ("Access-Control-Request-Headers", "range"),
        ]
        let target = "/https/cdn.example/v.m3u8"
        #expect(Self.summary(Self.decide(target, method: .options, preflight, token: "s3cret-token", cors: cors)) == "preflight")
        #expect(
            Self.summary(
                Self.decide(
                    target, method: .options,
                    [
                        ("Origin", "HTTP://127.0.0.1:8123"),
                        ("Access-Control-Request-Method", "GET"),
                    ], cors: cors)) == "preflight")
        #expect(
            Self.summary(
                Self.decide(
                    target, method: .options,
                    [
                        ("Origin", "https://evil.example"),
                        ("Access-Control-Request-Method", "GET"),
                    ], cors: cors)) == "reject 405")
        #expect(Self.summary(Self.decide(target, method: .options, preflight)) == "reject 405", "no CORS without a list")
        #expect(
            Self.summary(Self.decide(target, method: .options, [("Origin", "https://app.example")], cors: cors)) == "reject 405",
            "an OPTIONS that is no preflight")
    }

    @Test func onlyAnAllowedPageGetsTheCrossOriginFields() throws {
        let rules = ProxyRules(
            access: ProxyAccess(token: nil, limits: .init()), allowedHosts: nil, targets: ProxyTargets(),
            hasMetrics: false, cors: try CORSAllowList(["https://app.example:443"]))
        let allowed = rules.crossOriginFields(
            for: ProxyRequestHead(method: .get, target: "/", fields: [(name: "origin", value: "https://app.example")]))
        #expect(allowed?[.accessControlAllowOrigin] == "https://app.example")
        #expect(allowed?[.accessControlExposeHeaders] == "Content-Range, Content-Length, Accept-Ranges, Age")
        #expect(allowed?[.vary] == "Origin")
        #expect(rules.crossOriginFields(for: ProxyRequestHead(method: .get, target: "/", fields: [(name: "Origin", value: "null")])) == nil)
        #expect(rules.crossOriginFields(for: ProxyRequestHead(method: .get, target: "/")) == nil)
        #expect(throws: CORSAllowListError(origin: "https://app.example/page")) { try CORSAllowList(["https://app.example/page"]) }
        #expect(throws: CORSAllowListError(origin: "*")) { try CORSAllowList(["*"]) }
    }

    @Test func aPlaylistPathTheStoreDoesNotHoldIsReadAsAPlaylist() {
        #expect(Self.summary(Self.decide("/http/cdn.example/live/index.m3u8")) == "playlist")
        #expect(Self.summary(Self.decide("/http/cdn.example/live/index.M3U", method: .head)) == "playlist")
    }

    @Test func playlistsAreKnownByTypePathOrFirstLine() {
        let typed = Stored(mimeType: "application/vnd.apple.mpegurl")
        #expect(Self.summary(Self.decide(Self.path, [("Range", "bytes=0-9")], stored: typed)) == "playlist")
        // A small resource of a generic type whose path names no media file: its first line tells.
        let list = URL(string: "http://cdn.example/list")!
        let playlist = Stored(list, mimeType: "text/plain", first: Data("#EXTM3U\n".utf8))
        #expect(Self.summary(Self.decide("/http/cdn.example/list", [("Range", "bytes=100-109")], stored: playlist)) == "playlist")
        let object = Stored(list, mimeType: "application/octet-stream")
        #expect(Self.summary(Self.decide("/http/cdn.example/list", [("Range", "bytes=100-109")], stored: object)) == "hit 206 100-110")
        let uncached = Stored(list, mimeType: "text/plain", cached: [ByteRange(100, 200_000)])
        #expect(
            Self.summary(Self.decide("/http/cdn.example/list", [("Range", "bytes=100-109")], stored: uncached)) == "fetch known",
            "its first line is not cached: the origin's answer tells")
    }

    @Test func refusalsComeFirstAndSayWhy() throws {
        let token = "s3cret-token"
        let cases: [(ProxyDecision, Int)] = [
            (Self.decide("/" + String(repeating: "a", count: 9_000)), 414),
            (Self.decide(Self.path, [("X-Big", String(repeating: "b", count: 40_000))]), 431),
            (Self.decide(Self.path, token: token), 401),
            (Self.decide("/t/wrong-token" + Self.path, token: token), 401),
            (Self.decide("/t/\(token)" + Self.path), 404),
            (Self.decide(Self.path, method: .post), 405),
            (Self.decide("/api/stats", method: .delete), 405),
            (Self.decide("/ftp/cdn.example/a.mp4"), 400),
            (Self.decide(Self.path, allowedHosts: try HostAllowList(["other.example"])), 403),
        ]
        for (index, (decision, status)) in cases.enumerated() {
            #expect(Self.summary(decision) == "reject \(status)", "case \(index)")
        }
        guard case .reject(let refusal) = Self.decide("/api/entries", method: .put) else {
            Issue.record("a PUT of /api/entries is refused")
            return
        }
        #expect(refusal.headers[.allow] == "GET, DELETE" && refusal.message.contains("use GET or DELETE"))
    }

    @Test func theTokenIsTakenFromThePathOrTheHeadersAndEndpointsAreReachedWithoutIt() {
        let token = "s3cret-token"
        #expect(Self.summary(Self.decide("/t/\(token)" + Self.path, [("Range", "bytes=0-9")], token: token)) == "hit 206 0-10")
        #expect(
            Self.summary(Self.decide(Self.path, [("Range", "bytes=0-9"), ("Authorization", "Bearer \(token)")], token: token))
                == "hit 206 0-10")
        #expect(Self.summary(Self.decide("/t/\(token)/api/stats?x=1", token: token)) == "endpoint /api/stats?x=1")
        #expect(Self.summary(Self.decide("/api/url?u=x")) == "endpoint /api/url?u=x")
    }

    @Test func whatTheStoreCouldNotRecordIsRelayedUnlessItIsAPlaylist() {
        let failure = MediaStoreError.diskFull(key: nil, underlying: IOError(operation: "write", path: "data", code: ENOSPC))
        guard case .relay = ResourceAnswer.unrecorded(Self.clip, because: failure),
            case .playlist = ResourceAnswer.unrecorded(URL(string: "http://cdn.example/v.m3u8")!, because: failure)
        else {
            Issue.record("a clip is relayed, a playlist rewritten")
            return
        }
    }
}

import Foundation
import MediaCache
@testable import MediaCacheServer
import MediaCacheTesting
import Testing

/// The pure access rules, then the same rules over real HTTP.
@Suite(.timeLimit(.minutes(2))) struct ProxyAccessTests {
    let access = ProxyAccess(token: "s3cret-token", limits: .init())

    @Test func aTokenIsAcceptedInAHeaderOrAsAPathPrefixWhichIsRemoved() {
        let target = "/https/cdn.example/a.mp4"
        #expect(access.decide(target: target, headers: [("Authorization", "Bearer s3cret-token")]) == .allow(target: target))
        #expect(access.decide(target: target, headers: [("x-mediacache-token", "s3cret-token")]) == .allow(target: target))
        #expect(access.decide(target: "/t/s3cret-token" + target, headers: []) == .allow(target: target))
        #expect(access.decide(target: "/t/s3cret-token/", headers: []) == .allow(target: "/"))
        #expect(access.decide(target: "/t/s3cret-token?x=1", headers: []) == .allow(target: "/?x=1"))
    }

    @Test(arguments: [
        ("/https/cdn.example/a.mp4", [] as [(String, String)]),
        ("/https/cdn.example/a.mp4", [("Authorization", "Bearer s3cret-tokeN")]),
        ("/https/cdn.example/a.mp4", [("Authorization", "s3cret-token")]),
        ("/t/s3cret-tokenX/https/cdn.example/a.mp4", []),
        ("/t/s3cret/https/cdn.example/a.mp4", []),
        ("/https/cdn.example/t/s3cret-token/a.mp4", []),
    ])
    func aMissingOrWrongTokenIsRefused(_ target: String, _ headers: [(String, String)]) {
        guard case .reject(401, _) = access.decide(target: target, headers: headers.map { (name: $0.0, value: $0.1) }) else {
            Issue.record("\(target) \(headers) was not refused")
            return
        }
    }

    @Test func oversizedRequestHeadsAreRefused() {
        let open = ProxyAccess(token: nil, limits: .init())
        #expect(open.decide(target: "/" + String(repeating: "a", count: 9_000), headers: []).status == 414)
        #expect(open.decide(target: "/", headers: [("Cookie", String(repeating: "a", count: 17_000))]).status == 431)
        let many = (0..<101).map { (name: "X-\($0)", value: "1") }
        #expect(open.decide(target: "/", headers: many).status == 431)
        #expect(open.decide(target: "/", headers: [("Cookie", String(repeating: "a", count: 8_000))]) == .allow(target: "/"))
    }

    @Test func hostPatternsAllowExactNamesSubdomainsAndPorts() throws {
        let allowed = try HostAllowList(["CDN.example.com", "*.media.example", "127.0.0.1:48239", "[::1]:8081", "secure.example:443"])
        func allows(_ url: String) -> Bool { allowed.allows(URL(string: url)!) }
        #expect(allows("https://cdn.example.com/a.mp4"))
        #expect(allows("http://cdn.example.com:8080/a.mp4"), "a pattern without a port allows every port")
        #expect(allows("https://a.b.media.example/a.mp4"))
        #expect(!allows("https://media.example/a.mp4"))
        #expect(!allows("https://evilmedia.example/a.mp4"))
        #expect(!allows("https://example.com/a.mp4"))
        #expect(allows("http://127.0.0.1:48239/a.mp4"))
        #expect(!allows("http://127.0.0.1:48240/a.mp4"), "a pattern with a port allows that port only")
        #expect(allows("http://[::1]:8081/a.mp4"))
        #expect(allows("https://secure.example/a.mp4"), "https's default port is 443")
        #expect(!allows("http://secure.example/a.mp4"))
    }

    @Test(arguments: [
        "", " ", "https://cdn.example.com", "cdn.example.com/path", "cdn.example.com:0", "cdn.example.com:99999",
        "cdn..example.com", "*", "*.", "[::1", "user@cdn.example.com",
    ])
    func hostPatternsThatAreNotHostsAreRefused(_ pattern: String) {
        #expect(throws: HostAllowListError.invalidPattern(pattern)) { try HostAllowList([pattern]) }
    }

    @Test func anEmptyAllowListIsRefusedRatherThanAllowingEverything() {
        #expect(throws: HostAllowListError.empty) { try HostAllowList([]) }
    }

    @Test func aPathWithATokenPrefixOnAServerWithoutATokenSaysSo() {
        let open = ProxyAccess(token: nil, limits: .init())
        guard case .reject(404, let message) = open.decide(target: "/t/abc/https/cdn.example/a.mp4", headers: []) else {
            Issue.record("a /t/ path on a server without a token was not refused")
            return
        }
        #expect(message.contains("has no token"))
    }

    @Test func aTokenedProxyServesOnlyRequestsThatCarryTheToken() async throws {
        try await ProxyHarness.run(configure: { $0.token = "s3cret-token" }) { proxy in
            let content = TestOrigin.Content.pattern(length: 50_000, seed: 21)
            proxy.origin.serve("/a.mp4", content: content)
            #expect(try await proxy.request(proxy.proxied("/a.mp4")).status == 401)
            #expect(try await proxy.request(proxy.local("api/entries")).status == 401)
            #expect(proxy.origin.requests(for: "/a.mp4").isEmpty, "a refused request reaches no origin")
            let prefixed = try await proxy.request(proxy.proxied("/a.mp4", token: "s3cret-token"))
            #expect(prefixed.status == 200)
            #expect(prefixed.body == content.bytes(in: 0..<50_000))
            let header = try await proxy.request(proxy.local("api/entries"), headers: [("Authorization", "Bearer s3cret-token")])
            #expect(header.status == 200)
            let page = try await proxy.request(proxy.local("t/s3cret-token/"))
            #expect(page.status == 200)
            #expect(String(decoding: page.body, as: UTF8.self).contains("a.mp4"))
        }
    }

    @Test func hostsBeyondTheAllowListAreForbiddenAndNeverFetched() async throws {
        let allowed = try HostAllowList(["cdn.example.com"])
        try await ProxyHarness.run(configure: { $0.allowedHosts = allowed }) { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 1_000, seed: 1))
            let answer = try await proxy.request(proxy.proxied("/a.mp4"))
            #expect(answer.status == 403)
            #expect(proxy.origin.requests(for: "/a.mp4").isEmpty)
            #expect(try proxy.store.entries().isEmpty)
        }
    }

    @Test func oversizedHeadsAreRefusedOverHTTP() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 1_000, seed: 1))
            let large = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Cookie", String(repeating: "a", count: 20_000))])
            #expect(large.status == 431)
            let long = try await proxy.request(proxy.proxied("/a.mp4") + "?" + String(repeating: "q", count: 9_000))
            #expect(long.status == 414)
            // Beyond what the HTTP decoder accepts at all, the connection is refused before any
            // handler runs.
            let huge = try? await proxy.request(proxy.proxied("/a.mp4"), headers: [("Cookie", String(repeating: "a", count: 100_000))])
            #expect(huge == nil || huge?.status ?? 0 >= 400)
            #expect(proxy.origin.requests(for: "/a.mp4").isEmpty)
        }
    }

    /// Data files are named by index ids and every proxy path names a remote http(s) origin,
    /// so no request target reaches a file: not the cache's own, not the system's.
    @Test(arguments: [
        "/file/etc/passwd", "/../../etc/passwd", "/http/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc%2fpasswd", "/index.sqlite", "/data/1.data", "/https/%2Fetc%2Fpasswd/x",
    ])
    func noRequestReachesAFile(_ target: String) async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 1_000, seed: 1))
            _ = try await proxy.request(proxy.proxied("/a.mp4"))
            let answer = try await proxy.request(proxy.local(String(target.dropFirst())))
            #expect(answer.status >= 400, "\(target)")
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(!text.contains("root:"), "\(target) leaked /etc/passwd")
            #expect(answer.body != TestOrigin.Content.pattern(length: 1_000, seed: 1).bytes(in: 0..<1_000))
            #expect(!text.contains("SQLite format"))
        }
    }
}

extension ProxyAccess.Decision {
    var status: Int? {
        if case .reject(let status, _) = self { return status }
        return nil
    }
}

import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// What the API does with numbers, URLs, methods and names it should refuse, and the routes a
/// new user expects: pinning, `/api/url` on the address asked, the default preload amount.
@Suite(.timeLimit(.minutes(2))) struct APIInputTests {
    func decode<Value: Decodable>(_ type: Value.Type, _ answer: ProxyHarness.Answer) throws -> Value {
        try APIJSON.decoder().decode(type, from: answer.body)
    }

    func text(_ answer: ProxyHarness.Answer) -> String {
        String(decoding: answer.body, as: UTF8.self)
    }

    @Test func numbersOutOfRangeAreRefusedNamingTheFieldAndTheServerKeepsRunning() async throws {
        try await ProxyHarness.run { proxy in
            let url = proxy.origin.url("/a.mp4").absoluteString
            func post(_ json: String) async throws -> ProxyHarness.Answer {
                try await proxy.request(proxy.local("api/preload"), method: .POST, body: Data(json.utf8))
            }
            let cases = [
                (#"{"urls": ["\#(url)"], "seconds": 1e18}"#, "seconds:"),
                (#"{"urls": ["\#(url)"], "seconds": 86401}"#, "seconds:"),
                (#"{"urls": ["\#(url)"], "bytes": 1e30}"#, "bytes:"),
                (#"{"urls": ["\#(url)"], "bytes": 9223372036854775807}"#, "bytes:"),
                (#"{"urls": ["\#(url)"], "bytes": 1.5}"#, "bytes:"),
                (#"{"urls": ["\#(url)"], "priority": 1e9}"#, "priority:"),
                (#"{"urls": ["\#(url)"], "priority": -9223372036854775808}"#, "priority:"),
                (#"{"urls": ["http://user:secret@127.0.0.1/a.mp4"]}"#, "user name or password"),
            ]
            for (json, field) in cases {
                let answer = try await post(json)
                #expect(answer.status == 400, "\(json)")
                #expect(text(answer).contains(field), "\(json): \(text(answer))")
                #expect(!text(answer).contains("secret"), "a refused password is not repeated")
            }
            #expect(try await proxy.request(proxy.local("api/stats")).status == 200, "the server still runs")
            #expect(try await proxy.request(proxy.local("api/preload")).body == Data("[]".utf8), "nothing was queued")
            #expect(proxy.origin.requests(for: "/a.mp4").isEmpty)
        }
    }

    @Test func aPreloadWithoutAnAmountTakesTenSecondsAsTheCLIDoes() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/a.bin", content: .pattern(length: 1_000, seed: 1))
            let body = Data(#"{"urls": ["\#(proxy.origin.url("/a.bin").absoluteString)"]}"#.utf8)
            let jobs = try decode([PreloadJob].self, try await proxy.request(proxy.local("api/preload"), method: .POST, body: body))
            #expect(jobs.map(\.amount) == [.seconds(10)])
        }
    }

    @Test func aQueuedPreloadAskedForAgainShowsItsMergedAmountAndPriority() async throws {
        try await ProxyHarness.run(engine: { $0.preload.maxConcurrentJobs = 1 }) { proxy in
            proxy.origin.serve("/slow.bin", content: .pattern(length: 8 << 20, seed: 3))
            proxy.origin.setMisbehavior(.init(bytesPerSecond: 256 << 10), for: "/slow.bin")
            proxy.origin.serve("/next.bin", content: .pattern(length: 1 << 20, seed: 4))
            func post(_ json: String) async throws -> [PreloadJob] {
                try decode([PreloadJob].self, try await proxy.request(proxy.local("api/preload"), method: .POST, body: Data(json.utf8)))
            }
            let slow = proxy.origin.url("/slow.bin").absoluteString
            let next = proxy.origin.url("/next.bin").absoluteString
            _ = try await post(#"{"urls": ["\#(slow)"], "full": true}"#)
            #expect(try await post(#"{"urls": ["\#(next)"], "bytes": 1000}"#).map(\.state) == [.queued])
            let merged = try await post(#"{"urls": ["\#(next)"], "bytes": 5000, "priority": 7}"#)
            #expect(merged.map(\.amount) == [.bytes(5000)])
            #expect(merged.map(\.priority) == [7])
            let listed = try decode([PreloadJob].self, try await proxy.request(proxy.local("api/preload")))
            let queued = try #require(listed.first { $0.url.absoluteString == next })
            #expect(queued.amount == .bytes(5000) && queued.priority == 7 && queued.state == .queued)
            _ = try await proxy.request(proxy.local("api/preload"), method: .DELETE)
        }
    }

    @Test(arguments: [
        ("PUT", "api/stats", "GET"), ("POST", "api/entries", "GET, DELETE"), ("PATCH", "api/preload", "GET, POST, DELETE"),
        ("GET", "api/entries/abc", "DELETE"), ("POST", "api/entries/abc/pin", "PUT, DELETE"), ("DELETE", "", "GET"),
        ("POST", "https/cdn.example/a.mp4", "GET, HEAD"), ("PUT", "https/cdn.example/a.mp4", "GET, HEAD"),
    ])
    func aWrongMethodGets405WithAllow(_ method: String, _ path: String, _ allow: String) async throws {
        try await ProxyHarness.run { proxy in
            let answer = try await proxy.request(proxy.local(path), method: .init(rawValue: method))
            #expect(answer.status == 405)
            #expect(answer.headers["allow"] == allow)
        }
    }

    @Test func theProxyURLUsesTheAddressTheRequestReached() async throws {
        try await ProxyHarness.run(configure: { $0.token = "t0ken-for-tests" }) { proxy in
            let origin = "https://cdn.example/v/a.mp4"
            let asked = proxy.local("api/url?u=" + (origin.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            let answer = try await proxy.request(
                asked, headers: [("Authorization", "Bearer t0ken-for-tests"), ("Host", "192.168.1.20:8080")])
            #expect(answer.status == 200)
            #expect(text(answer) == "http://192.168.1.20:8080/t/t0ken-for-tests/https/cdn.example/v/a.mp4\n")
            let refused = try await proxy.request(
                proxy.local("api/url?u=http%3A%2F%2Fu%3Ap%40cdn.example%2Fa.mp4"),
                headers: [("Authorization", "Bearer t0ken-for-tests")])
            #expect(refused.status == 400)
            #expect(text(refused).contains("user name or password"))
        }
    }

    @Test func entriesArePinnedAndUnpinnedByKeyOrURL() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 10_000, seed: 5))
            #expect(try await proxy.request(proxy.proxied("/a.mp4")).status == 200)
            let url = proxy.origin.url("/a.mp4").absoluteString
            let path = "api/entries/" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + "/pin"
            let pinned = try decode(EntryReport.self, try await proxy.request(proxy.local(path), method: .PUT))
            #expect(pinned.entry.isPinned)
            #expect(try proxy.store.entries().first?.isPinned == true)
            let unpinned = try decode(EntryReport.self, try await proxy.request(proxy.local(path), method: .DELETE))
            #expect(!unpinned.entry.isPinned)
            #expect(try proxy.store.entries().first?.isPinned == false)
            let unknown = try await proxy.request(proxy.local("api/entries/https%3A%2F%2Fnone.example%2Fx/pin"), method: .PUT)
            #expect(unknown.status == 404)
            #expect(text(unknown) == "no cached resource https://none.example/x\n")
        }
    }

    @Test func anOriginThatIsDownIsNamedWithItsAddressAndCause() async throws {
        try await ProxyHarness.run { proxy in
            // Bound but not listening: connections are refused, and no other test's server can
            // take the port meanwhile (a stopped origin's port could be reused by one).
            let closed = LoopbackSocket()
            defer { closed.close() }
            let port = try #require(closed.bindToFreePort())
            let target = ProxyURL(host: "127.0.0.1", port: proxy.port).url(for: URL(string: "http://127.0.0.1:\(port)/a.mp4")!)!
            let answer = try await proxy.request(target.absoluteString)
            #expect(answer.status == 502)
            #expect(text(answer).contains("could not connect to 127.0.0.1:\(port) (connection refused)"), "\(text(answer))")
        }
    }
}

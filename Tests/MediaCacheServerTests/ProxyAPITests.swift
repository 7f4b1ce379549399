import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Prometheus
import Testing

@Suite(.timeLimit(.minutes(2))) struct ProxyAPITests {
    func decode<Value: Decodable>(_ type: Value.Type, _ answer: ProxyHarness.Answer) throws -> Value {
        try APIJSON.decoder().decode(type, from: answer.body)
    }

    @Test func entriesCarryTheirCachedRangesAndStatsCountHitsAndMisses() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/v/a.mp4", content: .pattern(length: 1_000_000, seed: 31))
            _ = try await proxy.request(proxy.proxied("/v/a.mp4"), headers: [("Range", "bytes=0-99999")])
            _ = try await proxy.request(proxy.proxied("/v/a.mp4"), headers: [("Range", "bytes=500000-599999")])
            _ = try await proxy.request(proxy.proxied("/v/a.mp4"), headers: [("Range", "bytes=0-49999")])

            let entries = try decode([EntryReport].self, try await proxy.request(proxy.local("api/entries")))
            let entry = try #require(entries.first)
            #expect(entries.count == 1)
            #expect(entry.cachedRanges == [ByteRange(offset: 0, length: 100_000), ByteRange(offset: 500_000, length: 100_000)])
            #expect(entry.entry.totalLength == 1_000_000)
            #expect(entry.playPath == "/http/127.0.0.1:\(proxy.origin.port)/v/a.mp4")

            let stats = try decode(StatsReport.self, try await proxy.request(proxy.local("api/stats")))
            #expect(stats.usage.cachedBytes == 200_000)
            // A cold GET reads at once, without a probe: every byte of the first read is a miss.
            #expect(stats.statistics?.bytesFromCache == 50_000)
            #expect(stats.statistics?.bytesFromNetwork == 200_000)
            #expect(stats.statistics?.bytesSaved == 50_000)
            #expect(stats.statistics?.bytesFromOrigin == 200_000)
        }
    }

    @Test func entriesAreRemovedByURLOrKeyAndClearedAllButPinned() async throws {
        try await ProxyHarness.run { proxy in
            for name in ["a", "b", "c"] {
                proxy.origin.serve("/\(name).mp4", content: .pattern(length: 10_000, seed: 1))
                _ = try await proxy.request(proxy.proxied("/\(name).mp4"))
            }
            // A miss's body may reach its client before the store has recorded the resource.
            let pinned = proxy.store.key(for: proxy.origin.url("/c.mp4"))
            let deadline = ContinuousClock.now + .seconds(10)
            while try proxy.store.record(for: pinned) == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            try proxy.store.setPinned(true, for: pinned)
            let url = proxy.origin.url("/a.mp4").absoluteString
            let encoded = try #require(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let removed = try decode(RemovalReport.self, try await proxy.request(proxy.local("api/entries/\(encoded)"), method: .DELETE))
            #expect(removed.removed == [ResourceKey(url)])
            let again = try await proxy.request(proxy.local("api/entries/\(encoded)"), method: .DELETE)
            #expect(again.status == 404)

            let cleared = try decode(RemovalReport.self, try await proxy.request(proxy.local("api/entries"), method: .DELETE))
            #expect(cleared.removed.count == 1, "the pinned entry stays")
            #expect(try proxy.store.entries().map(\.isPinned) == [true])
            let all = try await proxy.request(proxy.local("api/entries?includingPinned=true"), method: .DELETE)
            #expect(try decode(RemovalReport.self, all).removed.count == 1)
            #expect(try proxy.store.entries().isEmpty)
        }
    }

    @Test func metricsAreInPrometheusTextFormat() async throws {
        let registry = PrometheusCollectorRegistry()
        try await ProxyHarness.run(
            configure: { $0.metrics = registry },
            loading: {
                $0.metricsFactory = PrometheusMetricsFactory(registry: registry)
            }
        ) { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 30_000, seed: 1))
            _ = try await proxy.request(proxy.proxied("/a.mp4"))
            _ = try await proxy.request(proxy.proxied("/a.mp4"))
            let answer = try await proxy.request(proxy.local("metrics"))
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(text.contains(#"mediacache_served_bytes_total{source="cache"} 30000"#))
            #expect(text.contains(#"mediacache_served_bytes_total{source="network"} 30000"#))
            #expect(text.contains("mediacache_origin_bytes_total 30000"))
            #expect(text.contains("mediacache_store_bytes 30000"))
            #expect(text.contains("mediacache_store_entries 1"))
        }
    }

    @Test func theStatusPageListsEntriesWithRangeBarsAndEscapesWhatOriginsName() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/v/clip.mp4", content: .pattern(length: 100_000, seed: 1))
            proxy.origin.serve("/v/%3Cscript%3Ealert(1)%3C%2Fscript%3E.mp3", content: .pattern(length: 100, seed: 2))
            _ = try await proxy.request(proxy.proxied("/v/clip.mp4"), headers: [("Range", "bytes=50000-99999")])
            _ = try await proxy.request(proxy.proxied("/v/%3Cscript%3Ealert(1)%3C%2Fscript%3E.mp3"))
            let page = try await proxy.request(proxy.local(""))
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(html.contains(">clip.mp4<"))
            #expect(html.contains(#"<i style="left:50.00%;width:50.00%">"#), "the bar shows the second half cached")
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;.mp3"))
            #expect(!html.contains("<script>alert"))
            #expect(html.contains(#"data-src="/http/127.0.0.1:\#(proxy.origin.port)/v/clip.mp4""#))
        }
    }

    @Test func aStoreFailureInAnAPIRouteIsNamedInTheAnswer() async throws {
        try await ProxyHarness.run { proxy in
            try proxy.store.close()
            let answer = try await proxy.request(proxy.local("api/stats"))
            #expect(answer.status == 503)
            #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("cache store: "))
        }
    }
}

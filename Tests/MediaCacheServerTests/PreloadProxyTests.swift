import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Prometheus
import Testing

/// `POST /api/preload` of a few seconds makes an item start with the origin gone: ffmpeg decodes
/// the first seconds through the proxy exactly as from the file, from a small part of it.
@Suite(.timeLimit(.minutes(3))) struct PreloadProxyTests {
    static let media: [TestMedia] = [
        .faststartMP4(seconds: 30), .moovAtEndMP4(seconds: 30), .constantBitrateMP3(seconds: 30),
        .variableBitrateMP3(seconds: 30),
    ]

    func decode<Value: Decodable>(_ type: Value.Type, _ answer: ProxyHarness.Answer) throws -> Value {
        try APIJSON.decoder().decode(type, from: answer.body)
    }

    /// Polls `GET /api/preload` until every job has ended.
    func ended(_ proxy: ProxyHarness) async throws -> [PreloadJob] {
        while true {
            let jobs = try decode([PreloadJob].self, try await proxy.request(proxy.local("api/preload")))
            if jobs.allSatisfy(\.state.isFinal) { return jobs }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(arguments: media.indices)
    func aPreloadedItemStartsWithTheOriginStopped(_ index: Int) async throws {
        let media = Self.media[index]
        let ffmpeg = try Tools.require("ffmpeg")
        try await ProxyHarness.run { proxy in
            let bytes = try await media.make(in: proxy.directory.path)
            let path = "/media/\(media.name)"
            proxy.origin.serve(path, content: .data(bytes, mimeType: media.mimeType))
            let request = PreloadRequest(urls: [proxy.origin.url(path).absoluteString], amount: .seconds(4))
            let queued = try await proxy.request(proxy.local("api/preload"), method: .POST, body: APIJSON.encoder().encode(request))
            #expect(queued.status == 200)
            let job = try #require(try await ended(proxy).first)
            #expect(job.state == .finished, "\(job)")
            #expect(job.method == (media.name.hasSuffix(".mp4") ? "mp4 time index" : "mp3 time index"))
            let fetched = proxy.origin.bytesSent(for: path)
            #expect(Double(fetched) < 0.25 * Double(bytes.count), "\(media.name): fetched \(fetched) of \(bytes.count)")

            try await proxy.origin.stop()
            let file = proxy.directory.appending(media.name)
            let arguments = ["-v", "error", "-t", "3", "-i"]
            let direct = try await CommandRun.run(path: ffmpeg, arguments + [file, "-f", "md5", "-"])
            let offline = try await CommandRun.run(path: ffmpeg, arguments + [proxy.proxied(path), "-f", "md5", "-"])
            #expect(offline.status == 0 && offline.errorOutput.isEmpty, "\(media.name): \(offline.errorOutput)")
            #expect(offline.output == direct.output, "\(media.name): the first 3 s decode as from the file")

            let stats = try decode(StatsReport.self, try await proxy.request(proxy.local("api/stats")))
            let resource = try #require(stats.resources[proxy.store.key(for: proxy.origin.url(path)).rawValue])
            #expect(resource.bytesFromNetwork == 0, "everything played came from the cache")
            #expect(resource.bytesPreloaded == fetched)
            #expect(resource.bytesPreloadedPlayed > 0)
        }
    }

    @Test func theAPIQueuesListsAndCancelsAndRefusesBadRequests() async throws {
        let registry = PrometheusCollectorRegistry()
        let allowed = try HostAllowList(["127.0.0.1"])
        try await ProxyHarness.run(
            configure: {
                $0.metrics = registry
                $0.allowedHosts = allowed
            },
            engine: {
                $0.preload.maxConcurrentJobs = 1
            },
            loading: {
                $0.metricsFactory = PrometheusMetricsFactory(registry: registry)
            }
        ) { proxy in
            proxy.origin.serve("/slow.bin", content: .pattern(length: 8 << 20, seed: 3))
            proxy.origin.setMisbehavior(.init(bytesPerSecond: 1 << 20), for: "/slow.bin")
            proxy.origin.serve("/next.bin", content: .pattern(length: 1 << 20, seed: 4))
            let api = proxy.local("api/preload")
            func post(_ json: String) async throws -> ProxyHarness.Answer {
                try await proxy.request(api, method: .POST, body: Data(json.utf8))
            }
            let slow = proxy.origin.url("/slow.bin").absoluteString
            let next = proxy.origin.url("/next.bin").absoluteString
            #expect(try await post("not json").status == 400)
            #expect(try await post(#"{"urls": ["\#(slow)"], "seconds": 2, "bytes": 10}"#).status == 400)
            #expect(try await post(#"{"urls": ["\#(slow)"], "seconds": -1}"#).status == 400)
            #expect(try await post(#"{"urls": ["ftp://127.0.0.1/x"], "bytes": 10}"#).status == 400)
            #expect(try await post(#"{"urls": ["http://elsewhere.example/x"], "bytes": 10}"#).status == 403)
            #expect(try await post(#"{"urls": [], "bytes": 10}"#).status == 400)

            let queued = try decode([PreloadJob].self, try await post(#"{"urls": ["\#(slow)", "\#(next)"], "full": true, "priority": 2}"#))
            #expect(queued.map(\.state) == [.running, .queued])
            #expect(queued.allSatisfy { $0.priority == 2 && $0.amount == .full })
            let one = URLComponents(string: api + "?url=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next))!
            let afterOne = try decode([PreloadJob].self, try await proxy.request(one.string!, method: .DELETE))
            #expect(afterOne.first { $0.url.absoluteString == next }?.state == .cancelled)
            let afterAll = try decode([PreloadJob].self, try await proxy.request(api, method: .DELETE))
            #expect(afterAll.allSatisfy { $0.state == .cancelled || $0.state == .running })
            #expect(try await ended(proxy).allSatisfy { $0.state == .cancelled })
            #expect(proxy.origin.bytesSent(for: "/next.bin") == 0)

            _ = try await post(#"{"urls": ["\#(next)"], "bytes": 524288}"#)
            _ = try await ended(proxy)
            let page = String(decoding: try await proxy.request(proxy.local("")).body, as: UTF8.self)
            #expect(page.contains(#"<tr class="preload" data-state="finished">"#))
            #expect(page.contains(#"<dd id="preloaded-played">0 B</dd>"#))
            #expect(page.contains("<td>512.0 KiB (0 B)</td>"), "next.bin: 512 KiB preloaded, none played")
            let metrics = String(decoding: try await proxy.request(proxy.local("metrics")).body, as: UTF8.self)
            #expect(metrics.contains("mediacache_preloaded_bytes_total"))
        }
    }
}

#if !canImport(AVFoundation)
import AsyncHTTPClient
import AVFoundationShim
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheAVFoundation
import MediaCacheServer
import MediaCacheTesting
import Testing

/// The app-facing pieces: items and their URLs, HLS through the embedded proxy, the queue
/// controller, preloading from app code, and the item logs.
@Suite(.timeLimit(.minutes(2))) struct CachingPlayerItemTests {
    @Test func theCustomSchemeKeepsHTTPAndHTTPSAcrossTheRoundTrip() throws {
        for text in ["https://cdn.example/v/clip.mp4?sig=a%2Fb", "http://127.0.0.1:8080/a.mp3"] {
            let url = try #require(URL(string: text))
            let caching = try #require(CachingScheme.cachingURL(for: url))
            #expect(caching.scheme == "mediacache+" + url.scheme!)
            #expect(caching.pathExtension == url.pathExtension)
            #expect(CachingScheme.originalURL(for: caching) == url)
        }
        #expect(CachingScheme.cachingURL(for: URL(string: "file:///tmp/a.mp4")!) == nil)
        #expect(CachingScheme.originalURL(for: URL(string: "https://cdn.example/a.mp4")!) == nil)
        #expect(CachingScheme.originalURL(for: URL(string: "mediacache+ftp://cdn.example/a.mp4")!) == nil)
    }

    @Test func contentTypesAreUTIsFromTheMIMETypeOrElseTheExtension() {
        let url = URL(string: "https://cdn.example/a.bin")!
        #expect(ContentTypes.uti(mimeType: "video/mp4", url: url) == "public.mpeg-4")
        #expect(ContentTypes.uti(mimeType: "audio/mpeg; charset=binary", url: url) == "public.mp3")
        #expect(ContentTypes.uti(mimeType: "audio/x-m4a", url: url) == "com.apple.m4a-audio")
        #expect(
            ContentTypes.uti(mimeType: "application/octet-stream", url: URL(string: "https://c/a.mov")!)
                == "com.apple.quicktime-movie")
        #expect(ContentTypes.uti(mimeType: nil, url: URL(string: "https://c/a.wav")!) == "com.microsoft.waveform-audio")
        #expect(ContentTypes.uti(mimeType: nil, url: url) == nil)
        #expect(ContentTypes.uti(mimeType: nil, url: URL(string: "https://c/live/index.m3u8")!) == "public.m3u-playlist")
    }

    @MainActor @Test func anItemPlaysProgressiveMediaThroughItsOwnAsset() async throws {
        try await AdapterHarness.run { harness in
            harness.serve("/a.mp4", length: 100_000)
            let item = CachingPlayerItem(url: harness.origin.url("/a.mp4"), cache: harness.cache)
            let asset = try #require(item.asset as? CachingURLAsset)
            #expect(asset.url.scheme == "mediacache+http" && asset.originalURL == item.originalURL)
            #expect(item.cache === harness.cache)
            #expect(asset.resourceLoader.delegate != nil && asset.resourceLoader.delegateQueue != nil)
            #expect(item.automaticallyLoadedAssetKeys == ["duration"], "as AVPlayerItem(asset:) loads it")
        }
    }

    @MainActor @Test func makingAnHLSItemReturnsAtOnceAndItsPlaylistComesThroughTheProxyOnceItIsUp() async throws {
        try await AdapterHarness.run { harness in
            let segment = TestOrigin.Content.pattern(length: 50_000, seed: 7, mimeType: "video/mp2t")
            harness.origin.serve("/live/segment0.ts", content: segment)
            let playlist =
                "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n#EXTINF:4,\nsegment0.ts\n#EXT-X-ENDLIST\n"
            harness.origin.serve("/live/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))

            // The proxy has not started: the item is made without waiting for it.
            let hls = CachingPlayerItem(url: harness.origin.url("/live/index.m3u8"), cache: harness.cache)
            let asset = try #require(hls.asset as? CachingURLAsset)
            #expect(asset.url.absoluteString == "mediacache+http://127.0.0.1:\(harness.origin.port)/live/index.m3u8")

            let player = ResourceLoaderSimulator(asset)
            let (request, information) = player.contentInformation(allowed: ["public.m3u-playlist"], toEnd: true)
            let answered = await request.finished()
            #expect(answered.loading.finishError == nil, "\(String(describing: answered.loading.finishError))")
            #expect(information.contentType == "public.m3u-playlist")
            let text = String(decoding: answered.received, as: UTF8.self)
            let root = try await harness.cache.startProxy().absoluteString
            let base = root + "http/127.0.0.1:\(harness.origin.port)/live/"
            #expect(root.contains("/t/"), "the embedded proxy takes a token in the path")
            #expect(
                text
                    == playlist.replacingOccurrences(of: "URI=\"key.bin\"", with: "URI=\"\(base)key.bin\"")
                    .replacingOccurrences(of: "\nsegment0.ts", with: "\n\(base)segment0.ts"))
            #expect(information.contentLength == Int64(answered.received.count))

            // A generous deadline: the full suite runs hundreds of tests at once on two cores.
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "segment0.ts"), timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(response.status == .ok && Data(buffer: body) == segment.bytes(in: 0..<50_000))
            #expect(hls.cacheAccessLog().events.count == 1, "the playlist request is logged")
        }
    }

    @MainActor @Test func theQueueControllerStopsLoadingItemsThatLeaveTheQueue() async throws {
        try await AdapterHarness.run { harness in
            for name in ["a", "b", "c"] { harness.serve("/\(name).mp4", length: 4 << 20, bytesPerSecond: 1 << 20) }
            let controller = CachingQueueController(player: AVQueuePlayer())
            let items = ["a", "b", "c"].map { CachingPlayerItem(url: harness.origin.url("/\($0).mp4"), cache: harness.cache) }
            for item in items { #expect(controller.append(item)) }
            #expect(!controller.append(items[0]), "an item already queued is not inserted again (Apple raises)")
            let players = items.map { ResourceLoaderSimulator($0.asset as! AVURLAsset) }
            let loading = players.map { $0.read(from: 0) }
            for request in loading { await request.bytes(64 << 10) }

            controller.advanceToNextItem()
            _ = await loading[0].finished()
            #expect((loading[0].loading.finishError as? URLError)?.code == .cancelled, "the item left behind stops")
            controller.remove(items[2])
            _ = await loading[2].finished()
            #expect((loading[2].loading.finishError as? URLError)?.code == .cancelled)
            #expect(!loading[1].loading.isFinished, "the current item keeps loading")
            #expect(controller.player.items() == [items[1]])
        }
    }

    @Test func appCodePreloadsTheStartOfAnHLSPresentation() async throws {
        try await AdapterHarness.run { harness in
            let files = try await TestHLS(.multivariant, seconds: 10).make(in: harness.directory.path)
            for (path, data) in files { harness.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let master = harness.origin.url("/hls/master.m3u8")
            let updates = try await harness.cache.preloadUpdates()
            try await harness.cache.preload([master], amount: .seconds(2), maximumBandwidth: 1_000_000)
            for await job in updates where job.state.isFinal { break }
            let job = try #require(await harness.cache.preloadJobs().first)
            #expect(job.state == .finished && job.method?.hasPrefix("HLS") == true, "\(job)")
            let first = harness.store.key(for: harness.origin.url("/hls/v0/segment0.ts"))
            let later = harness.store.key(for: harness.origin.url("/hls/v0/segment3.ts"))
            #expect(try harness.store.record(for: first)?.isComplete == true, "the first seconds of the variant")
            #expect(try harness.store.record(for: later) == nil, "nothing beyond them")
            #expect(try harness.store.assets().count == 1)
        }
    }

    @Test func appCodePreloadsAndCancelsThroughTheCache() async throws {
        try await AdapterHarness.run { harness in
            harness.serve("/next.mp4", length: 1 << 20)
            harness.serve("/later.mp4", length: 8 << 20, bytesPerSecond: 1 << 20)
            let updates = try await harness.cache.preloadUpdates()
            try await harness.cache.preload([harness.origin.url("/next.mp4")], amount: .bytes(512 << 10))
            try await harness.cache.preload([harness.origin.url("/later.mp4")], amount: .full)
            for await job in updates where job.state.isFinal && job.url.lastPathComponent == "next.mp4" { break }
            await harness.cache.cancelPreloads(of: [harness.origin.url("/later.mp4")])
            for await job in updates where job.state.isFinal && job.url.lastPathComponent == "later.mp4" { break }
            let jobs = await harness.cache.preloadJobs()
            #expect(jobs.first { $0.url.lastPathComponent == "next.mp4" }?.state == .finished)
            #expect(jobs.first { $0.url.lastPathComponent == "later.mp4" }?.state == .cancelled)
            let key = harness.store.key(for: harness.origin.url("/next.mp4"))
            #expect(try harness.store.availableRanges(for: key) == [ByteRange(0, 512 << 10)])

            let (asset, player) = harness.simulator("/next.mp4")
            let read = await player.read(from: 0, length: 512 << 10).finished()
            #expect(read.received.count == 512 << 10)
            let event = try #require(asset.cacheAccessLog().events.last)
            #expect(event.numberOfBytesFromCache == 512 << 10 && event.numberOfBytesFromNetwork == 0)
            #expect(event.uri == harness.origin.url("/next.mp4").absoluteString)
            let text = String(decoding: asset.cacheAccessLog().extendedLogData() ?? Data(), as: UTF8.self)
            #expect(text.contains("#Fields: " + MediaCacheAccessLog.fields.joined(separator: " ")))
            #expect(text.contains(" 1 524288 524288 0 "))
        }
    }

    @Test func theEmbeddedProxyAndTheAppShareOnePreloader() async throws {
        try await AdapterHarness.run { harness in
            harness.serve("/slow.mp4", length: 8 << 20, bytesPerSecond: 1 << 20)
            let root = try await harness.cache.startProxy()
            try await harness.cache.preload([harness.origin.url("/slow.mp4")], amount: .full)
            // A generous deadline: the full suite runs hundreds of tests at once on two cores, and
            // a 10 s one was exceeded there.
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: root.absoluteString + "api/preload"),
                timeout: .seconds(60))
            let jobs = try APIJSON.decoder().decode([PreloadJob].self, from: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
            #expect(jobs.map(\.url) == [harness.origin.url("/slow.mp4")], "the app's preload is the proxy's")
            await harness.cache.cancelAllPreloads()
        }
    }
}
#endif

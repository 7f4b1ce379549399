import Foundation
import MediaCache
import MediaCacheHLS
import MediaCacheServer
import MediaCacheTesting
import Testing

/// Offline downloads over the proxy's loader: an HLS presentation or a file downloaded with
/// its selection, pinned, played offline by ffmpeg through the proxy; paused, resumed,
/// restarted, extended, removed; refused or failed with a clear reason.
@Suite(.timeLimit(.minutes(3))) struct DownloadManagerTests {
    /// Serves a multivariant presentation under `/hls/`; answers its files.
    func serveMultivariant(_ proxy: ProxyHarness, seconds: Int = 8, bytesPerSecond: Int? = nil) async throws -> [String: Data] {
        let files = try await TestHLS(.multivariant, seconds: seconds).make(in: proxy.directory.path)
        for (path, data) in files {
            proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
            if let bytesPerSecond, !path.hasSuffix(".m3u8") {
                proxy.origin.setMisbehavior(TestOrigin.Misbehavior(bytesPerSecond: bytesPerSecond), for: "/hls/" + path)
            }
        }
        return files
    }

    /// The download of `url` once it no longer waits or runs.
    func settled(_ manager: DownloadManager, _ url: URL) async throws -> Download {
        try await manager.settled(url.absoluteString)
    }

    /// Download `id` once `condition` holds of it, as the manager's updates tell.
    func reached(_ manager: DownloadManager, _ id: String, _ condition: (Download) -> Bool) async throws -> Download {
        let updates = await manager.updates()
        if let now = await manager.download(named: id), condition(now) { return now }
        for await download in updates where download.id == id && condition(download) { return download }
        throw CancellationError()
    }

    func originBytes(_ proxy: ProxyHarness, _ files: [String: Data]) -> Int64 {
        files.keys.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
    }

    @Test func anHLSDownloadPlaysOfflineWithItsSelectionAndIsPinned() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await serveMultivariant(proxy)
            let master = proxy.origin.url("/hls/master.m3u8")
            let ffmpeg = try Tools.require("ffmpeg")
            let decode = ["-v", "error", "-i"], output = ["-map", "0:v:0", "-map", "0:a:0", "-f", "md5", "-"]
            let direct = try await CommandRun.run(path: ffmpeg, decode + [master.absoluteString] + output)
            let before = originBytes(proxy, files)
            let sentBefore = Dictionary(uniqueKeysWithValues: files.keys.map { ($0, proxy.origin.bytesSent(for: "/hls/" + $0)) })

            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            await #expect {
                try await manager.download(master, selection: DownloadSelection(audio: .languages(["fr"])))
            } throws: { error in
                "\(error)" == "the presentation has no audio in fr; it has: en, de"
            }
            #expect(await manager.downloads.isEmpty, "nothing was queued")
            let queued = try await manager.download(master, title: "Test film", selection: DownloadSelection(audio: .languages(["en"])))
            #expect(queued.state == .queued && queued.title == "Test film")
            let done = try await settled(manager, master)
            #expect(done.state == .completed, "\(done.state)")
            #expect(done.resolved?.playlists.map(\.url.lastPathComponent) == ["index.m3u8", "index.m3u8"])
            #expect(done.segmentsDone == done.segmentCount && done.segmentCount > 0)
            #expect(done.loadedSeconds == done.durationSeconds && done.durationSeconds >= 7.9)
            #expect(done.renditions.map(\.kind) == [.variant, .audio] && done.renditions.map(\.language) == [nil, "en"])
            #expect(done.renditions.allSatisfy { $0.loaded == [$0.expected] }, "every rendition's whole time range: \(done.renditions)")
            #expect(done.bytesExpected == done.bytesDone && !done.expectedIsEstimate)
            #expect(await manager.isPlayableOffline(master))
            let fetched = originBytes(proxy, files) - before
            let selected = files.filter { !$0.key.hasPrefix("v2/") && !$0.key.hasSuffix(".vtt") && $0.key != "v0/index_vtt.m3u8" }
            #expect(Double(fetched) <= 1.02 * Double(selected.values.map { Int64($0.count) }.reduce(0, +)), "\(fetched)")
            #expect(
                files.keys.filter { $0.hasPrefix("v2/") && $0.hasSuffix(".ts") }
                    .allSatisfy { proxy.origin.bytesSent(for: "/hls/" + $0) == sentBefore[$0] }, "the other language was not downloaded")
            let members = try proxy.store.downloadMembers(of: done.id)
            #expect(try members.allSatisfy { try proxy.store.record(for: $0)?.isPinned == true }, "every byte of it pinned")
            #expect(try proxy.store.removeAll(includingPinned: false).isEmpty, "clear leaves downloads alone")

            let online = String(decoding: try await proxy.request(proxy.proxied("/hls/master.m3u8")).body, as: UTF8.self)
            #expect(online.contains("v2/index.m3u8") && online.contains("index_vtt.m3u8"), "online, the whole playlist")
            try await proxy.origin.stop()
            let restricted = String(decoding: try await proxy.request(proxy.proxied("/hls/master.m3u8")).body, as: UTF8.self)
            #expect(!restricted.contains("v2/index.m3u8") && !restricted.contains("index_vtt.m3u8"), "offline, what was downloaded")
            #expect(restricted.contains("v0/index.m3u8") && restricted.contains("v1/index.m3u8"))
            #expect(!restricted.contains("SUBTITLES="), "no variant names the subtitles group, which is not there: \(restricted)")
            #expect(restricted.contains("AUDIO=\"group_aud\""), "the audio group is there, with English alone")
            let offline = try await CommandRun.run(path: ffmpeg, decode + [proxy.proxied("/hls/master.m3u8")] + output)
            #expect(offline.status == 0 && offline.errorOutput.isEmpty, "\(offline.errorOutput)")
            #expect(offline.output == direct.output, "offline, exactly as from the origin")
            let gstreamer = try await CommandRun.run(
                path: try Tools.require("gst-launch-1.0"),
                [
                    "-q", "playbin", "uri=" + proxy.proxied("/hls/master.m3u8"), "video-sink=fakesink", "audio-sink=fakesink",
                ])
            #expect(gstreamer.status == 0, "GStreamer offline: \(gstreamer.output)\(gstreamer.errorOutput)")
            await manager.shutdown()
        }
    }

    @Test(arguments: [TestHLS.Shape.ts, .fmp4, .aes128, .singleFileTS, .singleFileFMP4])
    func everyShapeDownloadsAndDecodesOfflineAsFromTheOrigin(_ shape: TestHLS.Shape) async throws {
        try await ProxyHarness.run { proxy in
            let hls = TestHLS(shape, seconds: 6)
            let files = try await hls.make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let url = proxy.origin.url("/hls/" + hls.entry)
            let direct = try await HLSShapesTests.md5(url.absoluteString)
            let media = files.keys.filter { !$0.hasSuffix(".m3u8") }
            let sentBefore = media.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(url)
            let done = try await settled(manager, url)
            #expect(done.state == .completed, "\(shape): \(done.state)")
            #expect(
                done.bytesExpected == done.bytesDone && !done.expectedIsEstimate || ![.singleFileTS, .singleFileFMP4].contains(shape),
                "byte ranges make the size exact up front")
            let sent = media.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +) - sentBefore
            let size = media.map { Int64(files[$0]!.count) }.reduce(0, +)
            #expect(sent <= size, "\(shape): \(sent) bytes of segments, keys and init sections sent for \(size)")
            await manager.shutdown()
            try await proxy.origin.stop()
            #expect(try await HLSShapesTests.md5(proxy.proxied("/hls/" + hls.entry)) == direct, "\(shape) offline")
        }
    }

    @Test func anMP3DownloadsAndDecodesOffline() async throws {
        try await ProxyHarness.run { proxy in
            let media = TestMedia.constantBitrateMP3(seconds: 10)
            let bytes = try await media.make(in: proxy.directory.path)
            proxy.origin.serve("/album/song.mp3", content: .data(bytes, mimeType: media.mimeType))
            let url = proxy.origin.url("/album/song.mp3")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(url)
            let done = try await settled(manager, url)
            #expect(done.state == .completed)
            #expect(done.durationSeconds > 9.9 && done.loadedSeconds == done.durationSeconds, "seconds from the MP3's frames: \(done)")
            await manager.shutdown()
            try await proxy.origin.stop()
            let ffmpeg = try Tools.require("ffmpeg")
            let direct = try await CommandRun.run(
                path: ffmpeg, ["-v", "error", "-i", proxy.directory.appending(media.name), "-f", "md5", "-"])
            let offline = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-i", proxy.proxied("/album/song.mp3"), "-f", "md5", "-"])
            #expect(offline.status == 0 && offline.output == direct.output, "\(offline.errorOutput)")
        }
    }

    @Test func aDownloadedMP4PlaysOfflineInChromium() async throws {
        let chromium = try Tools.require("chromium")
        try await ProxyHarness.run { proxy in
            let media = TestMedia.faststartMP4(seconds: 3)
            proxy.origin.serve("/films/short.mp4", content: .data(try await media.make(in: proxy.directory.path), mimeType: media.mimeType))
            let url = proxy.origin.url("/films/short.mp4")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(url)
            #expect(try await settled(manager, url).state == .completed)
            await manager.shutdown()
            try await proxy.origin.stop()

            // The page and its reports come from a server of their own: the media's origin is gone.
            let pages = try await TestOrigin.start()
            let page = """
                <!doctype html><video id="v" muted autoplay src="\(proxy.proxied("/films/short.mp4"))"></video>
                <script>
                const v = document.getElementById('v');
                v.onended = () => fetch('/report/ended');
                v.onerror = () => fetch('/report/error?code=' + (v.error && v.error.code));
                </script>
                """
            pages.serve("/page.html", content: .data(Data(page.utf8), mimeType: "text/html"))
            let run = Task {
                try await CommandRun.run(
                    path: "/usr/bin/timeout",
                    ["90", chromium] + ChromiumTests.options + [
                        "--user-data-dir=\(proxy.directory.appending("profile"))", pages.url("/page.html").absoluteString,
                    ])
            }
            var reports: [String] = []
            let deadline = ContinuousClock.now + .seconds(90)
            while reports.isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                reports = ["/report/ended", "/report/error"].filter { !pages.requests(for: $0).isEmpty }
            }
            _ = try? await CommandRun.run(path: "/usr/bin/pkill", ["-f", proxy.directory.appending("profile")])
            _ = try? await run.value
            try await pages.stop()
            #expect(reports == ["/report/ended"], "Chromium played the downloaded MP4 offline: \(reports)")
        }
    }

    @Test func anMP4DownloadCountsTheSecondsItsBytesPlay() async throws {
        try await ProxyHarness.run { proxy in
            let media = TestMedia.faststartMP4(seconds: 10)
            let bytes = try await media.make(in: proxy.directory.path)
            proxy.origin.serve("/films/clip.mp4", content: .data(bytes, mimeType: media.mimeType))
            proxy.origin.setMisbehavior(.init(bytesPerSecond: bytes.count / 3), for: "/films/clip.mp4")
            let url = proxy.origin.url("/films/clip.mp4")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            let download = try await manager.download(url)
            let halfway = try await reached(manager, download.id) { $0.bytesDone >= Int64(bytes.count) / 2 }
            #expect(halfway.durationSeconds > 9.9)
            #expect(halfway.loadedSeconds > 0 && halfway.loadedSeconds < halfway.durationSeconds, "\(halfway.loadedSeconds) s")
            let done = try await settled(manager, url)
            #expect(done.loadedSeconds == done.durationSeconds && done.renditions.first?.loaded == [0..<done.durationSeconds])
            await manager.shutdown()
        }
    }

    @Test func pausingResumingAndRestartingFetchEachByteOnce() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await serveMultivariant(proxy, seconds: 24, bytesPerSecond: 400_000)
            let master = proxy.origin.url("/hls/master.m3u8")
            var manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            let download = try await manager.download(master)
            _ = try await reached(manager, download.id) { $0.segmentsDone >= 1 }
            try await manager.pause(download.id)
            let paused = try #require(await manager.download(named: download.id))
            #expect(paused.state == .paused)
            #expect(paused.renditions.contains { !$0.loaded.isEmpty }, "time ranges as segments arrive")
            #expect(paused.renditions.allSatisfy { $0.loadedSeconds < $0.expected.upperBound })
            try await manager.resume(download.id)
            _ = try await reached(manager, download.id) { $0.segmentsDone >= 3 }
            // The process ends while it downloads; the next one resumes it by itself.
            await manager.shutdown()
            #expect(try proxy.store.downloads().first?.state == "downloading")
            manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            let done = try await settled(manager, master)
            #expect(done.state == .completed, "\(done.state)")
            let selected = files.filter {
                $0.key.hasPrefix("v0/") && $0.key.hasSuffix(".ts") || $0.key.hasPrefix("v1/") && $0.key.hasSuffix(".ts")
            }
            let size = selected.values.map { Int64($0.count) }.reduce(0, +)
            let fetched = selected.keys.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
            let log = selected.keys.sorted().map {
                "\($0): \(proxy.origin.bytesSent(for: "/hls/" + $0))/\(selected[$0]!.count) "
                    + proxy.origin.requests(for: "/hls/" + $0).map { $0.range ?? "all" }.joined(separator: ",")
            }
            // Resumed transfers start where the stored bytes end. What the origin had sent but the
            // loader had not yet read when a transfer was interrupted (a pause, a shutdown) is
            // lost, at most one read of 64 KiB per transfer running.
            let interrupted = Int64(2 * DownloadManager.Configuration().parallelResources * (64 << 10))
            #expect(fetched <= size + interrupted, "\(fetched) origin bytes for \(size)\n\(log.joined(separator: "\n"))")
            await manager.shutdown()
        }
    }

    @Test func subtitlesAndEveryLanguageDownloadAndAreServedOffline() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await serveMultivariant(proxy)
            let master = proxy.origin.url("/hls/master.m3u8")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(master, selection: DownloadSelection(variant: .lowest, audio: .all, subtitles: .all))
            let done = try await settled(manager, master)
            #expect(done.state == .completed && done.renditions.map(\.kind) == [.variant, .audio, .audio, .subtitles])
            await manager.shutdown()
            try await proxy.origin.stop()
            let restricted = String(decoding: try await proxy.request(proxy.proxied("/hls/master.m3u8")).body, as: UTF8.self)
            #expect(restricted.contains("index_vtt.m3u8") && restricted.contains("v2/index.m3u8"), "everything was downloaded")
            for (path, data) in files where path.hasSuffix(".vtt") {
                let cue = try await proxy.request(proxy.proxied("/hls/" + path))
                #expect(cue.status == 200 && cue.body == data, "\(path) offline")
            }
        }
    }

    @Test func playingWhileDownloadingSharesTheFetches() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await serveMultivariant(proxy, seconds: 12, bytesPerSecond: 300_000)
            let master = proxy.origin.url("/hls/master.m3u8")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(master, selection: DownloadSelection(audio: .languages(["en"])))
            let play = try await CommandRun.run(
                path: try Tools.require("ffmpeg"),
                [
                    "-v", "error", "-i", proxy.proxied("/hls/master.m3u8"),
                    "-map", "0:v:0", "-map", "0:a:0", "-f", "null", "-",
                ])
            #expect(play.status == 0, "\(play.errorOutput)")
            #expect(try await settled(manager, master).state == .completed)
            let shared = files.filter { ($0.key.hasPrefix("v0/") || $0.key.hasPrefix("v1/")) && $0.key.hasSuffix(".ts") }
            let size = shared.values.map { Int64($0.count) }.reduce(0, +)
            let sent = shared.keys.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
            // The player and the download read the same resources through one loader: one fetch
            // each, apart from what a fetch cancelled between them had in flight.
            #expect(sent <= size + 4 * (64 << 10), "\(sent) origin bytes for \(size) played and downloaded")
            await manager.shutdown()
        }
    }

    @Test func anotherLanguageAddedLaterFetchesOnlyIt() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await serveMultivariant(proxy)
            let master = proxy.origin.url("/hls/master.m3u8")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(master, selection: DownloadSelection(audio: .languages(["en"])))
            _ = try await settled(manager, master)
            let english = files.keys.filter { !$0.hasPrefix("v2/") }.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
            try await manager.download(master, selection: DownloadSelection(audio: .languages(["de"])))
            let done = try await settled(manager, master)
            #expect(done.state == .completed)
            #expect(done.resolved?.playlists.count == 3, "variant, English, then German")
            let englishAfter = files.keys.filter { !$0.hasPrefix("v2/") }.map { proxy.origin.bytesSent(for: "/hls/" + $0) }.reduce(0, +)
            let german = files.filter { $0.key.hasPrefix("v2/") && $0.key.hasSuffix(".ts") }
            #expect(englishAfter - english < 4_096, "nothing fetched again but the playlists' revalidations")
            #expect(german.keys.allSatisfy { proxy.origin.bytesSent(for: "/hls/" + $0) == Int64(german[$0]!.count) })

            let removed = try await manager.remove(done.id)
            #expect(removed.count == done.segmentCount + 4, "every segment and the four playlists")
            #expect(try proxy.store.entries().allSatisfy { !$0.isPinned })
            await manager.shutdown()
        }
    }

    @Test func aFileDownloadsWholeAndPinned() async throws {
        try await ProxyHarness.run { proxy in
            proxy.origin.serve("/album/track.mp3", content: .pattern(length: 3 << 20, seed: 9, mimeType: "audio/mpeg"))
            let url = proxy.origin.url("/album/track.mp3")
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader,
                configuration: DownloadManager.Configuration().planningHLS(playlists: proxy.engine.playlists))
            try await manager.download(url, title: "Track")
            let done = try await settled(manager, url)
            #expect(done.state == .completed && done.isFile && done.resolved == nil)
            #expect(done.bytesDone == 3 << 20 && done.bytesExpected == 3 << 20 && !done.expectedIsEstimate)
            #expect(try proxy.store.record(for: proxy.store.key(for: url))?.isPinned == true)
            #expect(proxy.origin.bytesSent(for: "/album/track.mp3") <= (3 << 20) + 2)
            await manager.shutdown()
        }
    }

    @Test func liveMissingAndTooLargeDownloadsFailSayingWhy() async throws {
        try await ProxyHarness.run(loading: { $0.retry = .never }) { proxy in
            proxy.origin.serve("/live/index.m3u8", content: PlaylistFreshnessTests.window(4))
            var configuration = DownloadManager.Configuration()
            configuration.attempts = 2
            configuration.initialBackoff = .milliseconds(10)
            let manager = try await DownloadManager(
                loader: proxy.engine.playlists.loader, configuration: configuration.planningHLS(playlists: proxy.engine.playlists))
            let live = proxy.origin.url("/live/index.m3u8")
            try await manager.download(live)
            #expect(try await settled(manager, live).state.error?.contains("is a live playlist") == true)

            let files = try await serveMultivariant(proxy, seconds: 6)
            proxy.origin.remove("/hls/v0/segment1.ts")
            let master = proxy.origin.url("/hls/master.m3u8")
            try await manager.download(master)
            let failed = try await settled(manager, master)
            #expect(
                failed.state.error?.contains("segment1.ts") == true && failed.state.error?.contains("404") == true,
                "\(failed.state)")
            proxy.origin.serve("/hls/v0/segment1.ts", content: .data(files["v0/segment1.ts"]!, mimeType: "video/mp2t"))
            try await manager.resume(failed.id)
            #expect(try await settled(manager, master).state == .completed, "it resumes where it failed")
            await manager.shutdown()

            var tight = configuration
            tight.freeSpace = { _ in 1_000 }
            proxy.origin.serve("/big.mp4", content: .pattern(length: 1 << 20, seed: 2))
            let cramped = try await DownloadManager(
                loader: proxy.engine.playlists.loader, configuration: tight.planningHLS(playlists: proxy.engine.playlists))
            try await cramped.download(proxy.origin.url("/big.mp4"))
            let refused = try await settled(cramped, proxy.origin.url("/big.mp4"))
            #expect(refused.state.error?.contains("disk has 1000 free") == true, "\(refused.state)")
            await cramped.shutdown()
        }
    }
}

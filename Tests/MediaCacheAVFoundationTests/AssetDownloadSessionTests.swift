#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheHLS
import MediaCacheTesting
import Testing

/// The `AVAssetDownloadURLSession`-shaped facade: a task made suspended, resumed, telling its
/// delegate what and how much; found again after a relaunch; the asset then plays
/// offline; a cancel removes it.
@Suite(.timeLimit(.minutes(2))) struct AssetDownloadSessionTests {
    /// What the delegate heard, in order.
    final class Recorder: CachingAssetDownloadDelegate {
        let events = Locked<[String]>([])
        let loaded = Locked<[[Range<Double>]]>([])

        func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didResolve selection: ResolvedSelection) {
            events.withLock { $0.append("resolved \(selection.playlists.compactMap(\.language))") }
        }

        func session(
            _ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didLoad timeRange: Range<Double>,
            totalTimeRangesLoaded loadedTimeRanges: [Range<Double>], timeRangeExpectedToLoad: Range<Double>
        ) {
            loaded.withLock { $0.append(loadedTimeRanges) }
        }

        func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didCompleteWithError error: (any Error)?) {
            events.withLock { $0.append(error.map { "failed \($0)" } ?? "completed") }
        }
    }

    @Test func aTaskDownloadsWhenResumedTellsItsDelegateAndPlaysOffline() async throws {
        try await AdapterHarness.run { harness in
            let files = try await TestHLS(.multivariant, seconds: 8).make(in: harness.directory.path)
            for (path, data) in files { harness.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let master = harness.origin.url("/hls/master.m3u8")
            let recorder = Recorder()
            let session = ForegroundAssetDownloadSession(cache: harness.cache, delegate: recorder)
            var configuration = CachingAssetDownloadConfiguration(asset: CachingURLAsset(url: master, cache: harness.cache), title: "Film")
            configuration.audio = .all
            let task = try await session.makeAssetDownloadTask(downloadConfiguration: configuration)
            try await Task.sleep(for: .milliseconds(200))
            let segments = files.keys.filter { $0.hasSuffix(".ts") }
            #expect(segments.allSatisfy { harness.origin.bytesSent(for: "/hls/" + $0) == 0 }, "nothing before resume()")
            #expect(await task.download?.state == .paused)

            try await task.resume()
            while !recorder.events.withLock({ $0.contains("completed") || $0.contains { $0.hasPrefix("failed") } }) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(recorder.events.withLock { $0 } == ["resolved [\"en\", \"de\"]", "completed"])
            let progress = recorder.loaded.withLock { $0 }
            #expect(!progress.isEmpty)
            #expect(progress.last == [0..<8.0] || (progress.last?.first?.upperBound ?? 0) >= 7.9, "\(progress.last ?? [])")
            #expect(await task.loadedTimeRanges.count == 1)
            #expect(await harness.cache.isPlayableOffline(master))

            // The app ends and starts again: a new cache over the same store finds the task.
            try await harness.cache.close()
            let cache = PlaybackCache(loader: MediaLoader(store: harness.store, origin: harness.source))
            let relaunched = ForegroundAssetDownloadSession(cache: cache, delegate: recorder)
            let found = try #require(try await relaunched.allTasks().first)
            #expect(found.taskIdentifier == task.taskIdentifier && found.url == master)
            #expect(await cache.isPlayableOffline(master))

            try await harness.origin.stop()
            let proxied = try await cache.proxyURL(for: master)
            let offline = try await CommandRun.run(
                path: try Tools.require("ffmpeg"),
                [
                    "-v", "error", "-i", proxied.absoluteString,
                    "-map", "0:v:0", "-map", "0:a:0", "-f", "md5", "-",
                ])
            #expect(offline.status == 0 && offline.output.hasPrefix("MD5="), "offline through the cache: \(offline.errorOutput)")

            try await relaunched.removeDownload(of: master)
            #expect(recorder.events.withLock { $0.last } == "failed the download was cancelled")
            #expect(try await relaunched.allTasks().isEmpty)
            #expect(await !cache.isPlayableOffline(master))
            try await cache.close()
        }
    }
}
#endif

import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheTesting
import Testing

/// A download on a full disk fails saying so, loses nothing stored, and completes once space
/// is freed.
@Suite(.timeLimit(.minutes(3))) struct DownloadDiskTests {
    @Test func aFullDiskFailsTheDownloadClearlyAndItCompletesAfterSpaceIsFreed() async throws {
        let files = FaultyFileSystem()
        try await EngineFixture.run(storing: { $0.fileSystem = files }) { harness in
            let hls = try await TestHLS(.ts, seconds: 6).make(in: harness.directory.path)
            for (path, data) in hls { harness.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let url = harness.origin.url("/hls/index.m3u8")
            var configuration = DownloadManager.Configuration()
            configuration.attempts = 2
            configuration.initialBackoff = .milliseconds(10)
            let manager = try await DownloadManager(
                loader: harness.playlists.loader, configuration: configuration.planningHLS(playlists: harness.playlists))
            // The playlist fits; then the disk fills up.
            _ = try await harness.loader.revalidatedContent(of: url, maximumLength: 1 << 20) { _ in .seconds(60) }
            files.inject(.write, code: ENOSPC, pathContaining: "/data/")
            let download = try await manager.download(url)
            func settled() async throws -> DownloadState {
                try await manager.settled(download.id).state
            }
            let failed = try await settled()
            #expect(failed.error?.contains("disk full while writing") == true, "\(failed)")
            #expect(failed.error?.contains("segment") == true, "it names the resource: \(failed)")

            files.healAll()
            try await manager.resume(download.id)
            #expect(try await settled() == .completed)
            await manager.shutdown()
        }
    }
}

/// The same on a real, small file system (a 4 MiB tmpfs), where the test may mount one.
@Suite(.timeLimit(.minutes(3))) struct DownloadSmallFileSystemTests {
    @Test func aRealFullDiskFailsTheDownloadAndItCompletesAfterSpaceIsFreed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mounted: SmallFileSystem
        do {
            mounted = try SmallFileSystem.mount(at: directory.appending("disk"), bytes: 4 << 20)
        } catch {
            // Elsewhere the injected file system's disk-full test stands in; CI must run this one.
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "\(error)")
            return
        }
        let disk = mounted.path
        let origin = try await TestOrigin.start()
        let store = try MediaStore.open(at: disk + "/cache")
        let http = HTTPOrigin()
        let loader = MediaLoader(store: store, origin: http)
        var managers: [DownloadManager] = []
        do {
            try await fillUp(disk, origin: origin, loader: loader, directory: directory) { managers.append($0) }
        } catch {
            for manager in managers { await manager.shutdown() }
            await Self.tearDown(origin: origin, http: http, store: store, disk: mounted)
            throw error
        }
        for manager in managers { await manager.shutdown() }
        await Self.tearDown(origin: origin, http: http, store: store, disk: mounted)
    }

    /// Fills the disk while a download runs, then frees it; `opened` gets each manager made.
    private func fillUp(
        _ disk: String, origin: TestOrigin, loader: MediaLoader, directory: TemporaryDirectory,
        opened: (DownloadManager) -> Void
    ) async throws {
        // One file whose segments are byte ranges: the size is known exactly before the download.
        let hls = try await TestHLS(.singleFileTS, seconds: 30).make(in: directory.path)
        for (path, data) in hls { origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
        // A file that leaves 1 MiB, less than the download (1.5 MB) needs; the index's
        // write-ahead log needs some of it too.
        let filler = disk + "/filler"
        try Data(count: 3 << 20).write(to: URL(fileURLWithPath: filler))
        var configuration = DownloadManager.Configuration()
        configuration.attempts = 2
        configuration.initialBackoff = .milliseconds(10)
        let url = origin.url("/hls/index.m3u8")

        let checked = try await DownloadManager(
            loader: loader, configuration: configuration.planningHLS(playlists: PlaylistSource(store: loader.store, loader: loader)))
        opened(checked)
        let refused = try await checked.download(url)
        var state = try await Self.settled(checked, refused.id)
        #expect(state.error?.contains("free") == true, "the estimate does not fit: \(state)")
        await checked.shutdown()

        // Without the check (an estimate that was too low), the disk itself fills up.
        configuration.freeSpace = { _ in .max }
        let manager = try await DownloadManager(
            loader: loader, configuration: configuration.planningHLS(playlists: PlaylistSource(store: loader.store, loader: loader)))
        opened(manager)
        try await manager.resume(refused.id)
        state = try await Self.settled(manager, refused.id)
        #expect(state.error?.contains("disk full") == true || state.error?.contains("database or disk is full") == true, "\(state)")

        try FileManager.default.removeItem(atPath: filler)
        try await manager.resume(refused.id)
        state = try await Self.settled(manager, refused.id)
        #expect(state == .completed, "after space is freed: \(state)")
    }

    private static func tearDown(origin: TestOrigin, http: HTTPOrigin, store: MediaStore, disk: SmallFileSystem) async {
        try? await http.shutdown()
        try? await origin.stop()
        try? store.close()
        disk.unmount()
    }

    static func settled(_ manager: DownloadManager, _ id: String) async throws -> DownloadState {
        try await manager.settled(id).state
    }
}

/// Playback outranks downloading: while a player waits for the network, a download starts no
/// new resource; it goes on once playback is quiet.
@Suite(.timeLimit(.minutes(3))) struct DownloadPlaybackTests {
    @Test func aDownloadWaitsWhilePlaybackWaitsForTheNetwork() async throws {
        try await EngineFixture.run { harness in
            let playing = harness.serve("/playing.mp4", length: 1 << 20, misbehavior: .init(bytesPerSecond: 512 << 10))
            var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for number in 0..<40 {
                harness.serve("/hls/s\(number).ts", length: 32 << 10, seed: UInt64(number), misbehavior: .init(bytesPerSecond: 256 << 10))
                playlist += "#EXTINF:2,\ns\(number).ts\n"
            }
            playlist += "#EXT-X-ENDLIST\n"
            harness.origin.serve("/hls/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            var configuration = DownloadManager.Configuration()
            configuration.playbackQuietPeriod = .seconds(1)
            let manager = try await DownloadManager(
                loader: harness.playlists.loader, configuration: configuration.planningHLS(playlists: harness.playlists))
            do {
                let download = try await manager.download(harness.origin.url("/hls/index.m3u8"))
                let updates = await manager.updates()
                var started = try #require(await manager.download(named: download.id))
                for await update in updates where update.id == download.id {
                    started = update
                    if update.segmentsDone >= 2 || !update.state.isActive { break }
                }
                #expect(started.state.error == nil, "\(started.state)")
                func downloaded() -> Int64 { (0..<40).map { harness.origin.bytesSent(for: "/hls/s\($0).ts") }.reduce(0, +) }

                var atFirstChunk: Int64?
                var bytes = Data()
                for try await chunk in harness.loader.read(harness.origin.url("/playing.mp4"), ByteRequest(offset: 0)) {
                    if atFirstChunk == nil { atFirstChunk = downloaded() }
                    bytes.append(chunk.bytes)
                }
                let during = downloaded() - (atFirstChunk ?? 0)
                #expect(Bytes(bytes) == Bytes(playing.bytes(in: 0..<1 << 20)))
                #expect(during <= 4 * (32 << 10), "the download fetched \(during) bytes while playback waited; at most what was in flight")

                let state = try await manager.settled(download.id).state
                #expect(state == .completed, "it goes on once playback is quiet")
            } catch {
                await manager.shutdown()
                throw error
            }
            await manager.shutdown()
        }
    }
}

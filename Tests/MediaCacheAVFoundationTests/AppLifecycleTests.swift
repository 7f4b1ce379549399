#if !canImport(AVFoundation)
import AVFoundationShim
import Dispatch
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheTesting
import Testing

/// What an app's main thread and its AirPlay route need of the adapter: making the first HLS
/// item never waits for the store, and an item for an external screen plays the original URL.
@Suite(.timeLimit(.minutes(2))) struct AppLifecycleTests {
    @MainActor @Test func theFirstHLSItemIsMadeWithoutWaitingForTheStore() async throws {
        let origin = try await TestOrigin.start()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nsegment0.ts\n#EXT-X-ENDLIST\n"
        origin.serve("/live/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
        let gate = GatedFileSystem()
        var configuration = PlaybackCache.Configuration()
        configuration.directory = directory.path
        configuration.store.fileSystem = gate
        let cache = PlaybackCache(configuration: configuration)

        // The store cannot open until the gate opens: an item made on the main actor that
        // opened it would never return.
        let item = CachingPlayerItem(url: origin.url("/live/index.m3u8"), cache: cache)
        await gate.reached()
        gate.open()
        let answered = await ResourceLoaderSimulator(try #require(item.asset as? AVURLAsset))
            .contentInformation(allowed: ["public.m3u-playlist"], toEnd: true).0.finished()
        #expect(answered.loading.finishError == nil, "the store opened in the background, then the playlist came")
        try await cache.close()
        try await origin.stop()
    }

    @MainActor @Test func anItemForAnExternalScreenPlaysTheOriginalURL() throws {
        let url = URL(string: "https://cdn.example/film.m3u8")!
        let player = AVPlayer()
        #expect(PlaybackCache.shared.item(for: url, on: player) is CachingPlayerItem)
        player.setExternalPlaybackActive(true)
        let external = PlaybackCache.shared.item(for: url, on: player)
        #expect(!(external is CachingPlayerItem))
        #expect((external.asset as? AVURLAsset)?.url == url, "the receiver fetches the origin itself")
    }
}

/// The local file system, whose first directory creation (the store's first step when it
/// opens) waits until the test opens the gate.
private final class GatedFileSystem: FileSystem {
    private let local = LocalFileSystem()
    private let gate = DispatchSemaphore(value: 0)
    private let arrival = Locked<(arrived: Bool, waiters: [CheckedContinuation<Void, Never>], passed: Bool)>((false, [], false))

    /// Returns once the store tried to open.
    func reached() async {
        await withCheckedContinuation { continuation in
            let arrived = arrival.withLock { state in
                if !state.arrived { state.waiters.append(continuation) }
                return state.arrived
            }
            if arrived { continuation.resume() }
        }
    }

    /// Lets the store open.
    func open() {
        gate.signal()
    }

    func createDirectory(at path: String) throws(IOError) {
        let (first, waiters) = arrival.withLock { state in
            defer { (state.arrived, state.waiters, state.passed) = (true, [], true) }
            return (!state.passed, state.waiters)
        }
        for waiter in waiters { waiter.resume() }
        if first { gate.wait() }
        try local.createDirectory(at: path)
    }

    func openFile(at path: String) throws(IOError) -> any RandomAccessFile { try local.openFile(at: path) }
    func sizeOfFile(at path: String) throws(IOError) -> Int64? { try local.sizeOfFile(at: path) }
    func removeFile(at path: String) throws(IOError) { try local.removeFile(at: path) }
    func contentsOfDirectory(at path: String) throws(IOError) -> [String] { try local.contentsOfDirectory(at: path) }
    func mapFile(at path: String, length: Int) throws(IOError) -> (any MappedFile)? { try local.mapFile(at: path, length: length) }
}
#endif

import Foundation
import MediaCache

/// One cache, made in one place and shut down in order: the store, the loader every byte goes
/// through, the playlist source, one preloader (with HLS planning) and one download manager,
/// opened on first use. The proxy, the command-line tool, the Apple adapter and the tests all
/// build on it, so that each part exists once per cache.
///
/// It lives beside HLS rather than in the core because it registers HLS planning, which the
/// core does not know.
///
/// ```swift
/// let engine = try CacheEngine.open(at: MediaStore.defaultDirectory, origin: HTTPOrigin())
/// let server = try ProxyServer(engine: engine, configuration: .init(port: 8080))
/// try await server.run()
/// try await engine.shutdown()       // preloads cancelled, downloads stopped, the index flushed
/// ```
public final class CacheEngine: Sendable {
    /// How each part is configured.
    public struct Configuration: Sendable {
        /// Eviction, key normalisation, encryption and commits (used when the engine opens the store).
        public var store = MediaStore.Configuration()
        /// Chunking, coalescing and retries (used when the engine makes the loader).
        public var loader = MediaLoader.Configuration()
        /// Preload scheduling and pacing.
        public var preload = Preloader.Configuration()
        /// Download concurrency and retries.
        public var downloads = DownloadManager.Configuration()
        /// How long stored HLS playlists are served before the origin is asked again.
        public var playlistFreshness = PlaylistFreshness()
        /// Whether the download manager fetches; `false` for one that only lists, pauses,
        /// resumes and removes downloads (a command-line tool's while a server runs). Default: `true`.
        public var startsDownloads = true

        /// Creates the default configuration.
        public init() {}
    }

    /// The store the cache keeps its bytes and index in.
    public let store: MediaStore
    /// The loader every read goes through.
    public let loader: MediaLoader
    /// Where every part reads playlists.
    public let playlists: PlaylistSource
    /// The cache's one preloader.
    public let preloader: Preloader
    /// What the engine was made with.
    public let configuration: Configuration
    /// Whether the engine opened the store, and so closes it.
    private let ownsStore: Bool
    private let downloadManager = Locked<Task<DownloadManager, any Error>?>(nil)

    /// An engine over `loader`: its store stays open when the engine shuts down.
    /// `configuration.store` and `configuration.loader` are the loader's own, not these.
    public convenience init(loader: MediaLoader, configuration: Configuration = Configuration()) {
        self.init(loader: loader, configuration: configuration, ownsStore: false)
    }

    private init(loader: MediaLoader, configuration: Configuration, ownsStore: Bool) {
        store = loader.store
        self.loader = loader
        self.configuration = configuration
        self.ownsStore = ownsStore
        playlists = PlaylistSource(store: loader.store, loader: loader, freshness: configuration.playlistFreshness)
        preloader = Preloader(loader: loader, configuration: configuration.preload.planningHLS(playlists: playlists))
    }

    /// Opens the store at `directory` (closed again by ``shutdown()``) and reads what it lacks
    /// from `origin`.
    ///
    /// - Throws: `MediaStoreError` when the store cannot be opened (such as a directory
    ///   another process uses).
    public static func open(
        at directory: String, origin: any MediaOrigin,
        configuration: Configuration = Configuration()
    ) throws(MediaStoreError) -> CacheEngine {
        CacheEngine(
            owning: try MediaStore.open(at: directory, configuration: configuration.store), origin: origin,
            configuration: configuration)
    }

    /// An engine over a store opened for it, which ``shutdown()`` closes; what it lacks comes
    /// from `origin`. `configuration.store` is the store's own, not this.
    public convenience init(owning store: MediaStore, origin: any MediaOrigin, configuration: Configuration = Configuration()) {
        self.init(
            loader: MediaLoader(store: store, origin: origin, configuration: configuration.loader),
            configuration: configuration, ownsStore: true)
    }

    /// The cache's one download manager, opened on first use: downloads that were running when
    /// the last process ended resume then (unless ``Configuration/startsDownloads`` is off).
    ///
    /// - Throws: `MediaStoreError` when the downloads cannot be read from the index.
    public func downloads() async throws -> DownloadManager {
        let task = downloadManager.withLock { manager in
            if let manager { return manager }
            let made = Task { [playlists, configuration] in
                try await DownloadManager(
                    loader: playlists.loader, configuration: configuration.downloads.planningHLS(playlists: playlists),
                    startsDownloads: configuration.startsDownloads)
            }
            manager = made
            return made
        }
        return try await task.value
    }

    /// The download manager when it was opened already; `nil` otherwise.
    private var openedDownloads: DownloadManager? {
        get async { try? await downloadManager.withLock { $0 }?.value }
    }

    /// Stops the cache's work in order: preloads are cancelled and downloads stopped (to resume
    /// on the next start); then, when the engine made the loader, its fetches stop (those
    /// draining what they asked for too, so that none meets the origin shut under it), and the
    /// store is closed, its index flushed. Shut the origin down after this.
    ///
    /// - Throws: `MediaStoreError` when the store cannot be closed cleanly.
    public func shutdown() async throws(MediaStoreError) {
        await preloader.shutdown()
        await openedDownloads?.shutdown()
        guard ownsStore else { return }
        await loader.stopFetches()
        try store.close()
    }
}

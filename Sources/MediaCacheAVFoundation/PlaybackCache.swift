import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheServer

/// The cache an app plays and preloads through: one `CacheEngine` (store, loader, playlist
/// source, preloader, download manager) and, for HLS, one embedded loopback proxy, opened on
/// first use.
///
/// ```swift
/// let item = CachingPlayerItem(url: videoURL)            // plays through PlaybackCache.shared
/// try await PlaybackCache.shared.preload(nextURLs, amount: .seconds(5))
/// await PlaybackCache.shared.cancelPreloads(of: skippedURLs)
/// ```
///
/// Make an instance of your own for another directory or configuration, or over a loader you
/// built (tests pass one reading from a local origin).
public final class PlaybackCache: Sendable {
    /// The cache in `defaultDirectory` with the default configuration.
    public static let shared = PlaybackCache()

    /// Where the cache lives and how it loads.
    public struct Configuration: Sendable {
        /// The cache's directory: its index and its offline downloads. Default: on Apple
        /// platforms `Application Support/mediacache`, which iOS never purges, excluded from
        /// backup, with the bytes cached for playback in `Library/Caches/mediacache`, which it
        /// may empty (unless ``store`` names another `purgeableDirectory`);
        /// elsewhere `defaultDirectory`. A directory of your own keeps every file
        /// in it unless ``store`` names a purgeable folder.
        public var directory = AppStorage.directory
        /// Eviction, key normalisation, commits and a purgeable folder.
        public var store = MediaStore.Configuration()
        /// Chunking, coalescing and retries.
        public var loader = MediaLoader.Configuration()
        /// Preload scheduling and pacing.
        public var preload = Preloader.Configuration()
        /// How the resource loader serves AVPlayer.
        public var resourceLoading = ResourceLoadingConfiguration()
        /// The session media is fetched as: its configuration (headers, cookies, cellular and
        /// Low Data Mode policy, proxies) and its delegate (authentication challenges,
        /// certificate pinning, redirects) hold for every origin request. `nil`, the default:
        /// `URLSession.shared` on Apple platforms; SwiftNIO's HTTP client on Linux.
        public var session: URLSession?

        /// Creates the default configuration.
        public init() {}
    }

    private struct Opened: Sendable {
        var engine: CacheEngine
        /// Set when this instance made the origin, so that it closes it.
        var origin: AppOrigin?
        /// Whether closing the cache shuts the engine down: not one the caller owns.
        var ownsEngine = true
    }

    /// What the cache was made with.
    public let configuration: Configuration
    /// The headers each asset's requests carry, per server (see ``asset(for:options:headers:)``).
    public let headers: OriginHeaders
    private let opened: Locked<Opened?>
    private let proxy = Locked<EmbeddedProxy?>(nil)

    /// A cache that opens the store in `configuration.directory` on first use.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        headers = OriginHeaders()
        opened = Locked(nil)
    }

    /// A cache over a loader you own; closing the cache leaves the loader's store open. Assets'
    /// headers go to `headers`: give the registry the loader's origin was made with.
    public init(loader: MediaLoader, headers: OriginHeaders = OriginHeaders(), configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.headers = headers
        opened = Locked(Opened(engine: CacheEngine(loader: loader, configuration: Self.engineConfiguration(configuration))))
    }

    /// A cache over an engine you own, which a `ProxyServer` of yours may
    /// share; closing the cache stops its embedded proxy and leaves the engine running. Its
    /// loader and preloader are the engine's, so `configuration`'s `loader` and `preload`
    /// are not used. Assets' headers go to `headers`: give the registry the engine's origin
    /// was made with.
    ///
    /// ```swift
    /// let headers = OriginHeaders()
    /// let engine = try CacheEngine.open(at: directory, origin: URLSessionOrigin(session: .shared, headers: headers))
    /// let cache = PlaybackCache(engine: engine, headers: headers)
    /// ```
    public init(engine: CacheEngine, headers: OriginHeaders = OriginHeaders(), configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.headers = headers
        opened = Locked(Opened(engine: engine, ownsEngine: false))
    }

    /// The loader every item reads through, opening the store on first use.
    ///
    /// - Throws: `MediaStoreError` when the store cannot be opened (such as a directory
    ///   another process uses).
    public func loader() throws -> MediaLoader {
        try engine().loader
    }

    /// The engine, opening the store on first use.
    func engine() throws -> CacheEngine {
        try opened.withLock { opened in
            if let opened { return opened.engine }
            AppStorage.excludeFromBackup(configuration.directory)
            var engineConfiguration = Self.engineConfiguration(configuration)
            engineConfiguration.store = AppStorage.store(configuration.store, in: configuration.directory)
            let origin = AppOrigin(session: configuration.session, headers: headers)
            let engine = try CacheEngine.open(at: configuration.directory, origin: origin.origin, configuration: engineConfiguration)
            opened = Opened(engine: engine, origin: origin)
            return engine
        }
    }

    private static func engineConfiguration(_ configuration: Configuration) -> CacheEngine.Configuration {
        var engine = CacheEngine.Configuration()
        engine.loader = configuration.loader
        engine.preload = configuration.preload
        return engine
    }

    /// Preloads `amount` of each URL, the first ranked highest; returns at once.
    ///
    /// An HLS playlist is preloaded as a player starts it: the variant listed first, or the best
    /// within `maximumBandwidth` bits per second, its default audio and subtitles, and the
    /// segments of the first seconds.
    public func preload(
        _ urls: [URL], amount: PreloadAmount = .standard, priority: Int = 0,
        maximumBandwidth: Int? = nil
    ) async throws {
        let preloader = try engine().preloader
        for (rank, url) in urls.enumerated() {
            await preloader.preload(url, amount: amount, priority: priority - rank, maximumBandwidth: maximumBandwidth)
        }
    }

    /// Cancels the preloads of `urls`; what they fetched stays cached.
    public func cancelPreloads(of urls: [URL]) async {
        guard let preloader = opened.withLock({ $0?.engine.preloader }) else { return }
        for url in urls { await preloader.cancel(url) }
    }

    /// Cancels every preload.
    public func cancelAllPreloads() async {
        await opened.withLock { $0?.engine.preloader }?.cancelAll()
    }

    /// The preload jobs: running, queued and recently ended.
    public func preloadJobs() async -> [PreloadJob] {
        await opened.withLock { $0?.engine.preloader }?.jobs ?? []
    }

    /// Every change to a preload job from now on.
    public func preloadUpdates() async throws -> AsyncStream<PreloadJob> {
        try await engine().preloader.updates()
    }

    /// The app's one download manager over this cache's loader, opened on first use; downloads
    /// that were running when the app last ended resume then. The embedded proxy shares it.
    public func downloadManager() async throws -> DownloadManager {
        try await engine().downloads()
    }

    /// Whether `url` was downloaded in full and plays without the network.
    public func isPlayableOffline(_ url: URL) async -> Bool {
        guard let manager = try? await downloadManager() else { return false }
        return await manager.isPlayableOffline(url)
    }

    /// The URL that plays `url` through the embedded loopback proxy, which starts on first use
    /// (one per cache, on a free port, with a random token in the path) and is checked to
    /// still listen (see ``verifyProxy()``).
    public func proxyURL(for url: URL) async throws -> URL {
        guard let proxied = try await proxyURLs().url(for: url) else { throw PlaybackCacheError.notHTTP(url) }
        return proxied
    }

    /// The URLs of the embedded proxy, which starts on first use and is checked to still listen.
    func proxyURLs() async throws -> ProxyURL {
        let proxy = embeddedProxy()
        await proxy.verify()  // nothing to check before it first starts
        return try await proxy.urls()
    }

    /// Starts the embedded proxy now rather than when the first HLS item is made (whose
    /// playlist request then waits for it, without blocking the item's creator); call it at
    /// launch in apps that play HLS. Returns the proxy's root URL.
    @discardableResult
    public func startProxy() async throws -> URL {
        try await embeddedProxy().urls().root
    }

    /// Checks that the embedded proxy still accepts connections and, when iOS has taken its
    /// listening socket (it does in suspended apps), binds it again on the same port, so that
    /// URLs already handed to players keep working. The cache calls it when the app returns to
    /// the foreground and before each playlist it serves; call it yourself before handing a
    /// player a proxy URL you kept.
    public func verifyProxy() async {
        guard let proxy = self.proxy.withLock({ $0 }) else { return }
        await proxy.verify()
    }

    private func embeddedProxy() -> EmbeddedProxy {
        proxy.withLock { proxy in
            if let proxy { return proxy }
            let made = EmbeddedProxy { [weak self] configuration in
                guard let self else { throw PlaybackCacheError.proxyDidNotStart }
                // The app's one engine: the proxy's API sees the app's preloads and downloads,
                // and a downloaded playlist is restricted offline.
                return try ProxyServer(engine: self.engine(), configuration: configuration)
            }
            ForegroundObserver.observe { [weak made] in await made?.verify() }
            proxy = made
            return made
        }
    }

    /// Starts the embedded proxy in the background, for a caller that cannot wait (an item
    /// being made): the store opens there too, never on the caller's thread. A failure
    /// surfaces when the proxy is asked for.
    func startProxyInBackground() {
        embeddedProxy().start()
    }

    /// Stops the embedded proxy, preloads and downloads (running ones resume at the next open),
    /// and closes the store if this cache opened it.
    public func close() async throws {
        await proxy.withLock({ $0 })?.stop()
        let closing = opened.withLock { opened -> Opened? in
            guard let current = opened, current.ownsEngine else { return nil }
            opened = nil
            return current
        }
        guard let closing else { return }
        try await closing.engine.shutdown()
        try await closing.origin?.close()
    }
}

/// The former name of ``PlaybackCache``, which shared the core module's name: in a file that
/// imports both, `MediaCache.LoaderError` could not be resolved.
@available(*, deprecated, renamed: "PlaybackCache")
public typealias MediaCache = PlaybackCache

/// Why the cache could not do what was asked.
///
/// ```swift
/// do {
///     player.replaceCurrentItem(with: AVPlayerItem(url: try await cache.proxyURL(for: url)))
/// } catch let error as PlaybackCacheError where error.code == .notHTTP {
///     player.replaceCurrentItem(with: AVPlayerItem(url: url))   // a file URL plays as it is
/// }
/// ```
public struct PlaybackCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<PlaybackCacheError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The resource concerned.
    public let url: URL?

    private init(_ code: Code, _ message: String, url: URL? = nil) {
        self.code = code
        self.message = message
        self.url = url
    }

    /// Only http and https URLs are cached.
    public static func notHTTP(_ url: URL) -> Self {
        Self(.notHTTP, "\(url) is not an http or https URL; MediaCache caches only those", url: url)
    }

    /// The embedded proxy stopped before it listened.
    public static var proxyDidNotStart: Self { Self(.proxyDidNotStart, "the embedded proxy stopped before it listened") }

    /// The player accepts none of the content types that fit the resource as the origin
    /// describes it (its MIME type, else its file extension).
    public static func contentTypeNotAllowed(_ url: URL, mimeType: String?, allowed: [String]) -> Self {
        Self(
            .contentTypeNotAllowed,
            "\(url) is served as \(mimeType ?? "no MIME type")\(url.pathExtension.isEmpty ? " without a file extension" : ""), "
                + "which is none of the types this player accepts (\(allowed.joined(separator: ", "))); "
                + "serve it with its media type, such as video/mp4, or a file extension",
            url: url)
    }

    public var description: String { message }
}

extension ErrorCode where Owner == PlaybackCacheError {
    /// Only http and https URLs are cached.
    public static var notHTTP: Self { Self("notHTTP") }
    /// The embedded proxy stopped before it listened.
    public static var proxyDidNotStart: Self { Self("proxyDidNotStart") }
    /// The player accepts none of the resource's content types.
    public static var contentTypeNotAllowed: Self { Self("contentTypeNotAllowed") }
}

/// The former name of ``PlaybackCacheError``.
@available(*, deprecated, renamed: "PlaybackCacheError")
public typealias MediaCacheError = PlaybackCacheError

import Foundation

/// The one path for bytes: every player request, preload and download reads through it.
///
/// Cached bytes come from the store at once; gaps come from the origin, each byte fetched
/// once, shared by every reader that needs it, and kept in the store. One
/// `ResourceLoader` serves each resource while it has readers.
///
/// ```swift
/// let store = try MediaStore.open(at: MediaStore.defaultDirectory)
/// let loader = MediaLoader(store: store, origin: HTTPOrigin())
/// let url = URL(string: "https://cdn.example/clip.mp4")!
/// let info = try await loader.contentRecord(for: url).contentInfo   // length, type, ranges
/// for try await chunk in loader.read(url, ByteRequest(offset: 0, length: 1 << 20)) {
///     player.append(chunk.bytes)                                       // chunk.source: .cache or .network
/// }
/// ```
public final class MediaLoader: Sendable {
    /// The store bytes are kept in. Outside the package, whoever made the loader holds the
    /// store (a ``MediaStore`` they opened, or `CacheEngine.store`); the loader answers what its
    /// readers ask of it (``storedRecord(for:)``, ``cachedBytes(_:of:)``, ``cachedSpan(_:of:purpose:)``).
    package let store: MediaStore
    /// Where missing bytes come from.
    public let origin: any MediaOrigin
    /// Chunking, coalescing and retries.
    public let configuration: MediaLoader.Configuration

    private struct Entry {
        var loader: ResourceLoader
        var users: Int
        var lease: StoreLease
    }

    private let entries = Locked<[ResourceKey: Entry]>([:])
    /// Whether ``stopFetches()`` ended fetching for good.
    private let isStopped = Locked(false)
    let recorder: StatisticsRecorder

    /// Whether a player is waiting for the network; preloads wait for it to be quiet.
    public let playback: PlaybackActivity

    /// Creates a loader over `store` that fills gaps from `origin`.
    public init(store: MediaStore, origin: any MediaOrigin, configuration: MediaLoader.Configuration = MediaLoader.Configuration()) {
        self.store = store
        self.origin = origin
        self.configuration = configuration
        recorder = StatisticsRecorder(factory: configuration.metricsFactory)
        playback = PlaybackActivity(clock: configuration.clock)
    }

    /// Bytes served from the cache and the network, preloaded, and fetched from the origin, so
    /// far.
    public var statistics: CacheStatistics { recorder.snapshot }

    /// ``statistics`` per resource, for every resource read since the loader was created.
    public var resourceStatistics: [ResourceKey: CacheStatistics] { recorder.resources }

    /// The resource's stored record, asking the origin first when nothing is known of it.
    ///
    /// Asking the origin keeps the resource's first two bytes; a preload's ask counts them as
    /// preloaded.
    public func contentRecord(for url: URL, purpose: ReadPurpose = .playback) async throws(LoaderError) -> ResourceRecord {
        let loader = acquire(url)
        defer { release(store.key(for: url)) }
        return try await loader.contentRecord(purpose: purpose)
    }

    /// The whole content of a small resource that may change on the origin (an HLS playlist),
    /// no older than `maximumAge` says.
    ///
    /// A complete stored copy confirmed by the origin at most `maximumAge(body)` ago is the
    /// answer as it is. Otherwise the origin is asked, with the stored validators when there
    /// are any: `304 Not Modified` confirms the copy; a new body replaces it in a new
    /// generation, so old and new never mix. When the origin cannot be reached or fails (a
    /// transport failure, a 5xx), the stored copy is the answer, marked
    /// ``RevalidatedContent/isStale``; without one, the failure is thrown.
    ///
    /// ```swift
    /// let playlist = try await loader.revalidatedContent(of: url, maximumLength: 16 << 20) { body in
    ///     isLive(body) ? .seconds(3) : .seconds(60)
    /// }
    /// ```
    ///
    /// - Throws: ``LoaderError/tooLarge(url:limit:)`` past `maximumLength` bytes.
    public func revalidatedContent(
        of url: URL, maximumLength: Int64, purpose: ReadPurpose = .playback,
        maximumAge: @escaping @Sendable (Data) -> Duration
    ) async throws(LoaderError) -> RevalidatedContent {
        let loader = acquire(url)
        defer { release(store.key(for: url)) }
        let content = try await loader.revalidatedContent(maximumLength: maximumLength, maximumAge: maximumAge)
        recorder.delivered(content.chunk, of: content.record.key, for: purpose)
        return content
    }

    /// The bytes of `request`, in chunks of at most ``MediaLoader/Configuration/chunkSize``.
    ///
    /// Nothing happens until the sequence is iterated. A reader that stops iterating, or whose
    /// task is cancelled, is detached at once; fetches no reader needs any more stop, and the
    /// bytes they received stay cached. A ``ReadPurpose/playback`` reader waiting for the
    /// network pauses preloads (see ``playback``).
    public func read(_ url: URL, _ request: ByteRequest, purpose: ReadPurpose = .playback) -> ByteStream {
        ByteStream(loader: self, url: url, request: request, purpose: purpose)
    }

    /// Stops every fetch under way, those draining what they asked for included, and returns
    /// once they have stopped; from then on, a reader that needs the origin ends with
    /// ``LoaderError/cancelled`` (cached bytes are still read). Call it before the origin shuts
    /// down, so that no fetch meets a connection closed under it and retries.
    public func stopFetches() async {
        let loaders = entries.withLock { entries in
            isStopped.withLock { $0 = true }
            return entries.values.map(\.loader)
        }
        for loader in loaders { await loader.stopFetches() }
    }

    func acquire(_ url: URL) -> ResourceLoader {
        let key = store.key(for: url)
        return entries.withLock { entries in
            if var entry = entries[key] {
                entry.users += 1
                entries[key] = entry
                return entry.loader
            }
            // A running fetch keeps its loader as a reader does: a fetch still draining what it
            // asked for must be found by the next reader, not duplicated by a new loader.
            let holds = ResourceLoader.Holds(
                retain: { [weak self] in self?.retain(key) },
                release: { [weak self] in self?.release(key) })
            let loader = ResourceLoader(
                key: key, url: url, store: store, origin: origin, configuration: configuration,
                statistics: recorder, playback: playback, holds: holds,
                isStopped: isStopped.withLock { $0 })
            entries[key] = Entry(loader: loader, users: 1, lease: store.beginUse(of: key))
            return loader
        }
    }

    /// One more user of the loaded resource `key`: a fetch under way.
    private func retain(_ key: ResourceKey) {
        entries.withLock { entries in entries[key]?.users += 1 }
    }

    func release(_ key: ResourceKey) {
        let finished = entries.withLock { entries -> StoreLease? in
            guard var entry = entries[key] else { return nil }
            entry.users -= 1
            guard entry.users == 0 else {
                entries[key] = entry
                return nil
            }
            entries[key] = nil
            return entry.lease
        }
        finished?.end()
    }
}

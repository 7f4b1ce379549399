import Foundation

/// Offline downloads of HLS presentations and files, over the same loader as playback: a
/// download and a player reading the same bytes share one fetch, and playback outranks
/// downloading. Downloads are kept in the store's index and their bytes are pinned, so they
/// survive restarts and crashes: a download that was running resumes by itself, and no stored
/// byte is fetched again.
///
/// ```swift
/// let downloads = try await engine.downloads()      // with HLS planning; or DownloadManager(loader:) for files
/// let film = try await downloads.download(masterURL, title: "Film",
///                                         selection: DownloadSelection(audio: .languages(["en", "de"])))
/// for await update in await downloads.updates() where update.id == film.id {
///     print(update.state, update.bytesDone, update.loadedSeconds, "of", update.durationSeconds)
/// }
/// ```
public actor DownloadManager {
    /// Concurrency and retries.
    public struct Configuration: Sendable {
        /// Downloads fetched at once. Default: 2.
        public var maxConcurrentDownloads = 2
        /// Resources (segments, keys, init sections) of one download fetched at once. Default: 4.
        public var parallelResources = 4
        /// Tries of one resource without progress before the download fails. Default: 5.
        public var attempts = 5
        /// The wait after a failed try, doubled each time up to ``maximumBackoff``. Default: 200 ms.
        public var initialBackoff: Duration = .milliseconds(200)
        /// See ``initialBackoff``. Default: 5 s.
        public var maximumBackoff: Duration = .seconds(5)
        /// How long no player must have waited for the network before a resource is fetched:
        /// playback outranks downloading. Default: 250 ms.
        public var playbackQuietPeriod: Duration = .milliseconds(250)
        /// Free bytes on the file system of a path; the default asks the system.
        public var freeSpace: @Sendable (String) -> Int64? = DiskSpace.available(at:)
        /// Planners for URLs that are more than one resource, asked in order (see
        /// ``DownloadPlanner``). Default: none; `CacheEngine` adds HLS.
        public var planners: [any DownloadPlanner] = []

        /// Creates the default configuration.
        public init() {}
    }

    /// The loader downloads read through.
    public nonisolated let loader: MediaLoader
    /// Concurrency and retries.
    public nonisolated let configuration: Configuration
    /// Whether queued downloads start; a manager that only lists and changes them does not.
    private let startsDownloads: Bool
    /// How downloads read: for downloading, with retries, committed every ``commitStep``.
    let fetcher: TargetFetcher
    /// Every download, until it is removed.
    var records = JobReports<String, Download>(retention: .untilRemoved)
    /// Which downloads run, at most ``Configuration/maxConcurrentDownloads``, oldest first.
    private var queue: JobQueue<String, Void>
    var running: [String: Task<Void, Never>] = [:]
    /// The time indexes of the files being downloaded, for their seconds.
    var timeIndexes: [String: any MediaTimeIndex] = [:]

    var store: MediaStore { loader.store }

    /// Opens the downloads recorded in `loader`'s store; those that were running when the last
    /// process ended are queued again and, with `startsDownloads`, start at once.
    ///
    /// - Parameters:
    ///   - loader: The loader downloads read through; its store records them.
    ///   - configuration: Concurrency, retries, the free-space check and the planners.
    ///   - startsDownloads: Whether this manager fetches; `false` for one that only lists,
    ///     pauses, resumes and removes downloads (a command-line tool's).
    /// - Throws: ``MediaStoreError`` when the index cannot be read.
    public init(loader: MediaLoader, configuration: Configuration = Configuration(), startsDownloads: Bool = true) async throws {
        self.loader = loader
        self.configuration = configuration
        self.startsDownloads = startsDownloads
        queue = JobQueue(limit: configuration.maxConcurrentDownloads, order: .oldest) { _, _ in }
        var policy = FetchPolicy(purpose: .download, quietPeriod: configuration.playbackQuietPeriod)
        policy.attempts = configuration.attempts
        policy.initialBackoff = configuration.initialBackoff
        policy.maximumBackoff = configuration.maximumBackoff
        policy.commitStep = Self.commitStep
        fetcher = TargetFetcher(loader: loader, policy: policy)
        for stored in try loader.store.downloads() {
            guard let document = try? JSONDecoder().decode(Download.Document.self, from: stored.selection),
                let state = DownloadState(name: stored.state, error: stored.error)
            else { continue }
            records.record(
                Download(
                    id: stored.id, url: stored.url, title: stored.title, state: state.relaunched(),
                    selection: document.selection, resolved: document.resolved, isFile: document.isFile,
                    bytesDone: stored.bytesDone, bytesExpected: stored.bytesExpected, expectedIsEstimate: stored.expectedIsEstimate,
                    segmentsDone: document.segmentsDone, segmentCount: document.segmentCount, loadedSeconds: document.loadedSeconds,
                    durationSeconds: document.durationSeconds, renditions: document.renditions ?? []), for: stored.id)
        }
        for download in records.all { enqueue(download.id) }
    }

    /// Every download, oldest first.
    public var downloads: [Download] { records.all }

    /// The download with identifier `id`, or of URL `id`.
    public func download(named name: String) -> Download? {
        if let download = records[name] { return download }
        let key = URL(string: name).map(store.key(for:))
        return downloads.first { store.key(for: $0.url) == key }
    }

    /// Whether `url` was downloaded in full and plays without the network.
    public func isPlayableOffline(_ url: URL) -> Bool {
        download(named: url.absoluteString)?.isPlayableOffline ?? false
    }

    /// Downloads `url` (a playlist or a file) with `selection`. Asking again for a URL being
    /// downloaded or downloaded adds the new selection: only what is missing is fetched, into
    /// the same asset.
    ///
    /// A selection that names a language, a bandwidth or a resolution is checked against the
    /// presentation first, and refused when it lacks what it names.
    ///
    /// - Parameters:
    ///   - url: The playlist or file.
    ///   - title: What lists show; the URL's last path component when `nil`.
    ///   - selection: The variant and renditions of an HLS presentation.
    ///   - paused: Whether a new download waits for ``resume(_:)`` (as a download task waits
    ///     for its `resume()`).
    /// - Throws: ``DownloadSelectionError`` for a selection the presentation cannot meet, with
    ///   what it has; the origin's or the playlist's error when the presentation cannot be
    ///   read to check it.
    @discardableResult
    public func download(
        _ url: URL, title: String? = nil, selection: DownloadSelection = DownloadSelection(),
        paused: Bool = false
    ) async throws -> Download {
        try await check(selection, of: url)
        if var existing = download(named: url.absoluteString) {
            existing.selection = selection
            if let title { existing.title = title }
            existing.state = existing.state.extended()
            try save(existing)
            enqueue(existing.id)
            return existing
        }
        let download = Download(
            id: UUID().uuidString.lowercased(), url: url, title: title ?? url.lastPathComponent, state: paused ? .paused : .queued,
            selection: selection, resolved: nil, isFile: false, bytesDone: 0, bytesExpected: nil, expectedIsEstimate: true,
            segmentsDone: 0, segmentCount: 0, loadedSeconds: 0, durationSeconds: 0)
        try save(download)
        enqueue(download.id)
        return download
    }

    /// Pauses a download and returns once its fetches stopped; what it fetched stays.
    public func pause(_ name: String) async throws {
        var download = try existing(name)
        download.state = try download.state.paused()
        try save(download)
        await stop(download.id)
    }

    /// Resumes a paused or failed download where it stopped.
    public func resume(_ name: String) throws {
        var download = try existing(name)
        download.state = try download.state.resumed()
        try save(download)
        enqueue(download.id)
    }

    /// Stops and removes a download with exactly its bytes (resources another download has
    /// stay).
    ///
    /// - Returns: The keys of the resources removed.
    @discardableResult
    public func remove(_ name: String) async throws -> [ResourceKey] {
        let download = try existing(name)
        records.remove(download.id)
        await stop(download.id)
        return try store.removeDownload(download.id)
    }

    /// Download `name` once it no longer waits or runs: completed, failed or paused.
    ///
    /// ```swift
    /// let film = try await downloads.download(masterURL)
    /// let ended = try await downloads.settled(film.id)     // ended.state == .completed, or why not
    /// ```
    ///
    /// - Throws: ``DownloadError/unknown(_:)`` for a name no download has; `CancellationError`
    ///   when the calling task is cancelled.
    public func settled(_ name: String) async throws -> Download {
        let download = try existing(name)
        guard download.state.isActive else { return download }
        // Subscribed before this actor runs anything else: no change is missed.
        for await update in updates() where update.id == download.id && !update.state.isActive {
            return update
        }
        try Task.checkCancellation()
        throw DownloadError.unknown(name)
    }

    /// Every change to any download from now on.
    public func updates() -> AsyncStream<Download> {
        records.subscribe { id in Task { await self.unsubscribe(id) } }
    }

    /// Stops every running download, leaving it to resume on the next start, and returns once
    /// none runs.
    public func shutdown() async {
        _ = queue.cancelAll()
        let tasks = running
        running = [:]
        for task in tasks.values { task.cancel() }
        for task in tasks.values { await task.value }
    }

    private func unsubscribe(_ id: UUID) {
        records.unsubscribe(id)
    }

    private func existing(_ name: String) throws(DownloadError) -> Download {
        guard let download = download(named: name) else { throw .unknown(name) }
        return download
    }

    /// Queues download `id` when it is queued and this manager fetches.
    private func enqueue(_ id: String) {
        guard startsDownloads, records[id]?.state == .queued else { return }
        perform(queue.add(id, ()))
    }

    /// Stops download `id` and returns once its fetches stopped; what it fetched stays.
    private func stop(_ id: String) async {
        perform(queue.cancel(id))
        if let task = running.removeValue(forKey: id) {
            task.cancel()
            await task.value
        }
        perform(queue.finished(id))
    }

    /// Starts what the queue starts; what it stops, ``stop(_:)`` awaits.
    private func perform(_ actions: [JobQueue<String, Void>.Action]) {
        for case .start(let job) in actions {
            guard var download = records[job.key], download.state == .queued else {
                perform(queue.finished(job.key))
                continue
            }
            download.state = .downloading
            try? save(download)
            running[job.key] = Task { await self.run(job.key) }
        }
    }

    /// Publishes `download` and records it in the index. Subscribers see the change even when
    /// the index cannot take it (a full disk): it is this manager's state either way.
    func save(_ download: Download) throws {
        records.record(download, for: download.id)
        let now = Date()
        let stored = StoredDownload(
            id: download.id, url: download.url, title: download.title,
            selection: try JSONEncoder().encode(download.document), state: download.state.name, error: download.state.error,
            bytesDone: download.bytesDone, bytesExpected: download.bytesExpected, expectedIsEstimate: download.expectedIsEstimate,
            created: now, updated: now)
        try store.saveDownload(stored)
    }

    /// Applies `change` to a download that is still running; a file's seconds follow its bytes.
    func update(_ id: String, _ change: (inout Download) -> Void) {
        guard running[id] != nil, var download = records[id] else { return }
        change(&download)
        if let index = timeIndexes[id], download.renditions.count == 1 {
            let available = (try? store.availableRanges(for: store.key(for: download.url))) ?? ByteRangeSet()
            let seconds = index.playableSeconds(from: available)
            download.renditions[0].loaded = seconds > 0 ? [0..<seconds] : []
            download.loadedSeconds = seconds
        }
        try? save(download)
    }

    /// A run ended: completed, failed, or stopped by a pause or a removal (already recorded).
    func ended(_ id: String, failure: String?) {
        timeIndexes[id] = nil
        guard running.removeValue(forKey: id) != nil else { return }
        defer { perform(queue.finished(id)) }
        guard var download = records[id] else { return }
        if let failure {
            download.state = (try? download.state.failed(failure)) ?? .failed(failure)
        } else {
            download.state = (try? download.state.finished()) ?? .completed
        }
        try? save(download)
    }
}

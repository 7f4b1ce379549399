import Foundation

/// Serves every reader of one resource: cached bytes at once, gaps from the origin through
/// fetches shared by the readers that need them (see ``FetchPlan``).
///
/// Bytes flow one way: a fetch writes them into the store, then wakes the readers, which
/// read them back from the store in chunks of at most ``LoaderConfiguration/chunkSize``. No
/// reader holds more than one chunk, however fast the origin or slow the reader.
actor ResourceLoader {
    typealias ReaderID = FetchPlan.ReaderID
    typealias FetchID = FetchPlan.FetchID

    struct Reader {
        var position: Int64
        var end: Int64?
        /// The generation of the bytes delivered so far; `nil` until the first chunk.
        var generation: Generation?
        /// What was cached when the reader came: bytes from it count as ``ByteChunk/Source/cache``,
        /// every other byte as ``ByteChunk/Source/network``.
        var cachedAtStart: ByteRangeSet
        /// Playback readers waiting for the network pause preloads.
        var purpose: ReadPurpose
        var failure: LoaderError?
    }

    let key: ResourceKey
    let url: URL
    let store: MediaStore
    let origin: any MediaOrigin
    let configuration: LoaderConfiguration
    let statistics: StatisticsRecorder
    let playback: PlaybackActivity

    var plan: FetchPlan
    var readers: [ReaderID: Reader] = [:]
    var waiters: [ReaderID: CheckedContinuation<Void, any Error>] = [:]
    var fetchTasks: [FetchID: Task<Void, Never>] = [:]
    /// Fetches paused because they are ``LoaderConfiguration/readahead`` ahead of their readers.
    var pausedFetches: [FetchID: CheckedContinuation<Void, Never>] = [:]
    var probe: Task<ResourceRecord, any Error>?
    /// The revalidation under way, shared by every caller that needs one meanwhile.
    var revalidation: Task<RevalidatedContent, any Error>?
    private var nextReaderID = 0

    init(key: ResourceKey, url: URL, store: MediaStore, origin: any MediaOrigin, configuration: LoaderConfiguration,
         statistics: StatisticsRecorder, playback: PlaybackActivity) {
        self.key = key
        self.url = url
        self.store = store
        self.origin = origin
        self.configuration = configuration
        self.statistics = statistics
        self.playback = playback
        plan = FetchPlan(coalescingDistance: configuration.coalescingDistance)
    }

    /// Registers a reader of `request`.
    func addReader(_ request: ByteRequest, purpose: ReadPurpose) -> ReaderID {
        let id = nextReaderID
        nextReaderID += 1
        let cached = (try? store.availableRanges(for: key)) ?? ByteRangeSet()
        readers[id] = Reader(position: request.offset, end: request.end, cachedAtStart: cached, purpose: purpose)
        return id
    }

    /// Detaches a reader at once; fetches nobody needs any more are cancelled.
    func removeReader(_ id: ReaderID) {
        readers[id] = nil
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
        cancel(plan.removeReader(id))
        resumePausedFetches()
    }

    /// The reader's next chunk, `nil` at the end of its request.
    func next(_ id: ReaderID) async throws(LoaderError) -> ByteChunk? {
        while true {
            guard var reader = readers[id] else { throw .cancelled }
            if let failure = reader.failure { throw failure }
            if let end = reader.end, reader.position >= end { return nil }
            let record = try storedRecord()
            if let record {
                if let generation = reader.generation, generation != record.generation {
                    throw .contentChanged(key: key, from: generation, to: record.generation)
                }
                let length = record.contentInfo.totalLength
                let end = [reader.end, length].compactMap { $0 }.min()
                if let end, reader.position >= end {
                    if let length, reader.generation == nil, reader.position >= length, reader.end != reader.position {
                        throw .rangeNotSatisfiable(offset: reader.position, totalLength: length)
                    }
                    return nil
                }
                let run = record.available.contiguousLength(from: reader.position)
                if run > 0 {
                    // A chunk never straddles the edge of what was cached when the reader came,
                    // so that each byte is counted for the right source.
                    let hit = reader.cachedAtStart.contiguousLength(from: reader.position)
                    let miss = reader.cachedAtStart.firstRange(after: reader.position).map { $0.lowerBound - reader.position }
                    let count = min(run, Int64(configuration.chunkSize), (end ?? .max) - reader.position,
                                    hit > 0 ? hit : miss ?? .max)
                    let range = ByteRange(offset: reader.position, length: count)
                    let bytes: Data
                    do { bytes = try store.read(range, from: key, generation: record.generation) } catch { throw .store(error) }
                    let chunk = ByteChunk(offset: range.lowerBound, bytes: bytes, source: hit > 0 ? .cache : .network)
                    reader.position = range.upperBound
                    reader.generation = record.generation
                    readers[id] = reader
                    resumePausedFetches()
                    return chunk
                }
            }
            let nextCached = record.flatMap { $0.available.firstRange(after: reader.position)?.lowerBound }
            let gapEnd = [nextCached, record?.contentInfo.totalLength, reader.end].compactMap { $0 }.min()
            let (decision, cancelled) = plan.reader(id, needs: reader.position, gapEnd: gapEnd)
            cancel(cancelled)
            if case .start(let fetch, let from, let to) = decision {
                startFetch(fetch, from: from, to: to)
            }
            do {
                try await waitForProgress(id, purpose: reader.purpose)
            } catch {
                throw .cancelled
            }
        }
    }

    /// The stored record, `nil` while nothing is known of the resource.
    func storedRecord() throws(LoaderError) -> ResourceRecord? {
        do { return try store.record(for: key) } catch { throw .store(error) }
    }

    /// Suspends the reader until a fetch reports progress, an end or a failure.
    private func waitForProgress(_ id: ReaderID, purpose: ReadPurpose) async throws {
        if purpose == .playback { playback.beginWaiting() }
        defer { if purpose == .playback { playback.endWaiting() } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters[id] = continuation
            }
        } onCancel: {
            Task { await self.cancelWait(id) }
        }
    }

    private func cancelWait(_ id: ReaderID) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    /// Wakes every waiting reader; each checks again what it can read.
    func wakeReaders() {
        let woken = waiters
        waiters = [:]
        for continuation in woken.values { continuation.resume() }
    }

    func cancel(_ fetches: [FetchID]) {
        for id in fetches {
            fetchTasks.removeValue(forKey: id)?.cancel()
            pausedFetches.removeValue(forKey: id)?.resume()
        }
    }

    /// Lets paused fetches check again whether their readers caught up.
    func resumePausedFetches() {
        let paused = pausedFetches
        pausedFetches = [:]
        for continuation in paused.values { continuation.resume() }
    }
}

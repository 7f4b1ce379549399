import Foundation

/// Serves every reader of one resource: cached bytes at once, gaps from the origin through
/// fetches shared by the readers that need them (see ``FetchPlan``).
///
/// Bytes flow one way: a fetch writes them into the store, then wakes the readers, which
/// read them in chunks of at most ``MediaLoader/Configuration/chunkSize``: from the last few chunks
/// written, which the loader keeps in memory (``RecentWrites``), or back from the store. No
/// reader holds more than one chunk, however fast the origin or slow the reader. A reader
/// that sends files itself gets cached bytes as spans of the data file instead (``ReadPart``),
/// which hold no bytes in memory at all.
///
/// The decisions are value types, tested without I/O: which fetch serves which reader and which
/// drains (``FetchPlan``), when a ranged fetch asks for more and what slow round trips taught
/// (``RequestPacing``), when waiting fetches go on (``FetchWaits``), and a miss's record before
/// the store holds it (``MissAnnouncement``). The actor holds what they act on: the readers'
/// positions, their continuations, and the fetches' tasks and drain timers.
actor ResourceLoader {
    typealias ReaderID = FetchPlan.ReaderID
    typealias FetchID = FetchPlan.FetchID

    struct Reader {
        var position: Int64
        var end: Int64?
        /// Whether it will take every byte it asked for (``ByteRequest/takesAll``).
        var takesAll: Bool
        /// The generation of the bytes delivered so far; `nil` until the first chunk.
        var generation: Generation?
        /// The generation of the record ``record(for:)`` handed it, before any byte (a server
        /// answered a head from it): bytes of another generation must not follow.
        var promised: Generation?
        /// What was cached when the reader came: bytes from it count as ``ByteChunk/Source/cache``,
        /// every other byte as ``ByteChunk/Source/network``.
        var cachedAtStart: ByteRangeSet
        /// Playback readers waiting for the network pause preloads.
        var purpose: ReadPurpose
        var failure: LoaderError?
        /// The bytes delivered from the cache since the last network byte: a reader that reaches
        /// a gap after at least a chunk of them first waits ``MediaLoader/Configuration/gapDelayAfterCache``.
        var cachedRun: Int64 = 0
        /// Whether it waits for the resource's record (``record(for:)``), which wakes it as
        /// soon as a fetch records the origin's answer.
        var awaitsRecord = false
    }

    let key: ResourceKey
    let url: URL
    let store: MediaStore
    let origin: any MediaOrigin
    let configuration: MediaLoader.Configuration
    let statistics: StatisticsRecorder
    let playback: PlaybackActivity

    var plan: FetchPlan
    var readers: [ReaderID: Reader] = [:]
    var waiters: [ReaderID: CheckedContinuation<Void, any Error>] = [:]
    var fetchTasks: [FetchID: Task<Void, Never>] = [:]
    /// Which fetches wait for their readers, and when they go on.
    var waits = FetchWaits()
    /// The waiting fetches' tasks, resumed as ``waits`` decides.
    var waitingFetches: [FetchID: CheckedContinuation<Void, Never>] = [:]
    /// The drain timers of fetches nobody waits on any more (``FetchPlan/Fetch/isDraining``).
    var drainTimers: [FetchID: Task<Void, Never>] = [:]
    /// How ranged fetches ask, and the lead slow round trips taught.
    var pacing: RequestPacing
    /// The last chunks fetches wrote, for readers close behind them (eight chunks at most).
    var recent: RecentWrites
    /// The record a fetch made from the origin's answer for a resource the store did not hold,
    /// while that fetch creates it in the store (see ``accept(_:info:fetch:requestedOffset:answeredAfter:)``).
    var announcement = MissAnnouncement()
    /// How a running fetch keeps this loader alive in its ``MediaLoader``.
    let holds: Holds
    var probe: Task<ResourceRecord, any Error>?
    /// The revalidation under way, shared by every caller that needs one meanwhile.
    var revalidation: Task<RevalidatedContent, any Error>?
    private var nextReaderID = 0
    /// Whether ``stopFetches()`` stopped this resource's fetches for good.
    var isStopped = false

    /// How a fetch keeps this loader alive in its ``MediaLoader`` while it runs.
    struct Holds: Sendable {
        let retain: @Sendable () -> Void
        let release: @Sendable () -> Void
    }

    init(
        key: ResourceKey, url: URL, store: MediaStore, origin: any MediaOrigin, configuration: MediaLoader.Configuration,
        statistics: StatisticsRecorder, playback: PlaybackActivity, holds: Holds, isStopped: Bool = false
    ) {
        self.holds = holds
        self.isStopped = isStopped
        self.key = key
        self.url = url
        self.store = store
        self.origin = origin
        self.configuration = configuration
        self.statistics = statistics
        self.playback = playback
        recent = RecentWrites(capacity: 8 * configuration.chunkSize)
        plan = FetchPlan(coalescingDistance: configuration.coalescingDistance)
        pacing = RequestPacing(
            initialLead: configuration.initialReadahead, maximumLead: configuration.readahead,
            requestWindow: configuration.requestWindow, slowRoundTrip: configuration.slowRoundTrip)
    }

    /// Registers a reader of `request`.
    func addReader(_ request: ByteRequest, purpose: ReadPurpose) -> ReaderID {
        let id = nextReaderID
        nextReaderID += 1
        let record = try? store.record(for: key)
        var cached = record?.available ?? ByteRangeSet()
        // Bytes that arrived before the reader came and are not stored yet (a response's first
        // chunk, see ``arriving(_:at:generation:)``) cost it nothing from the origin either.
        if let record { cached.formUnion(recent.ranges(of: record.generation)) }
        readers[id] = Reader(
            position: request.offset, end: request.end, takesAll: request.takesAll,
            cachedAtStart: cached, purpose: purpose)
        return id
    }

    /// Detaches a reader at once; fetches nobody waits on any more drain (see ``FetchRunner``).
    func removeReader(_ id: ReaderID) {
        readers[id] = nil
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
        release(plan.removeReader(id))
    }

    /// The reader's next part, `nil` at the end of its request: stored bytes as a span of the
    /// data file of at most `fileSpanLimit` bytes when one is given and the store has files
    /// to send, otherwise chunks of at most ``MediaLoader/Configuration/chunkSize`` in memory.
    ///
    /// A reader that takes spans gets the bytes a fetch just wrote as spans too, rather than
    /// from ``RecentWrites``: its server sends them from the page cache without copying them,
    /// and everything written since it last asked leaves as one span. Only bytes not stored
    /// yet (see ``arriving(_:at:generation:)``) come to it from memory.
    func next(_ id: ReaderID, fileSpanLimit: Int64? = nil) async throws(LoaderError) -> ReadPart? {
        while true {
            guard var reader = readers[id] else { throw .cancelled }
            // A reader that has every byte it asked for is done, whatever its fetch met since.
            if let end = reader.end, reader.position >= end { return nil }
            if let failure = reader.failure { throw failure }
            // A reader close behind its fetch takes what it just wrote from memory; cached bytes
            // come from the store, which stays the truth for every reader that comes later.
            if fileSpanLimit == nil, Self.source(at: reader).0 == .network, let chunk = recentChunk(id, reader: &reader) {
                return .bytes(chunk)
            }
            let record = try storedRecord()
            if let record {
                if let generation = reader.generation ?? reader.promised, generation != record.generation {
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
                    let (source, sourceRun) = Self.source(at: reader)
                    let count = min(run, (end ?? .max) - reader.position, sourceRun)
                    do {
                        return try cachedPart(
                            of: count, source: source, generation: record.generation, fileSpanLimit: fileSpanLimit,
                            to: id, &reader)
                    } catch  where error.store?.code == .dataMissing {
                        // The store could not read those bytes back (a data file cut short, an
                        // encrypted block that fails authentication) and dropped them: they are
                        // a gap now, fetched again, never served.
                        continue
                    }
                }
            }
            // Bytes kept before they are stored (a response's first chunk) go to every reader,
            // of spans or of cached bytes too: it would otherwise wait for the data file.
            if let chunk = recentChunk(id, reader: &reader) { return .bytes(chunk) }
            if reader.cachedRun > 0 {
                // Served from the cache, a player's reader runs ahead of the player by what the
                // sockets in between hold. A player that stops within those bytes (a replay of
                // what it played before, a seek) goes away meanwhile, and costs the origin nothing.
                // After less than a chunk (the two bytes of a content probe) the player has
                // nothing to play meanwhile, and the gap is fetched at once.
                readers[id]?.cachedRun = 0
                if reader.purpose == .playback, reader.cachedRun >= Int64(configuration.chunkSize) {
                    try? await Task.sleep(for: configuration.gapDelayAfterCache)
                    continue
                }
            }
            try await waitForFetch(id, reader: reader, record: record)
        }
    }

    /// The resource's record for a reader that has had no bytes yet: the stored one at once;
    /// while there is none, the one the fetch of the reader's first bytes makes from the
    /// origin's answer, as soon as it has it: before any of the body, and before the store has
    /// created the resource.
    func record(for id: ReaderID) async throws(LoaderError) -> ResourceRecord {
        while true {
            guard let reader = readers[id] else { throw .cancelled }
            if let failure = reader.failure { throw failure }
            if let record = try knownRecord() {
                if reader.generation == nil { readers[id]?.promised = record.generation }
                return record
            }
            readers[id]?.awaitsRecord = true
            defer { readers[id]?.awaitsRecord = false }
            try await waitForFetch(id, reader: reader, record: nil)
        }
    }

    /// Has a fetch bring the bytes at the reader's position (a new one, or the one already
    /// bringing them) and suspends the reader until a fetch reports.
    private func waitForFetch(_ id: ReaderID, reader: Reader, record: ResourceRecord?) async throws(LoaderError) {
        guard !isStopped else { throw .cancelled }
        let nextCached = record.flatMap { $0.available.firstRange(after: reader.position)?.lowerBound }
        let gapEnd = [nextCached, record?.contentInfo.totalLength, reader.end].compactMap { $0 }.min()
        let (decision, orphaned) = plan.reader(id, needs: reader.position, gapEnd: gapEnd)
        release(orphaned)
        switch decision {
        case .start(let fetch, let from, _):
            startFetch(fetch, from: from)
        case .wait(let fetch):
            wakeDemand(of: fetch, for: reader)
        case .revive(let fetch):
            drainTimers.removeValue(forKey: fetch)?.cancel()
            readersMoved()
        }
        do {
            try await waitForProgress(id, purpose: reader.purpose)
        } catch {
            throw .cancelled
        }
    }

    /// The reader's next part from the `available` cached bytes at its position: a span of
    /// the data file when the caller takes one and the store has it, otherwise a chunk read
    /// from the store.
    private func cachedPart(
        of available: Int64, source: ByteChunk.Source, generation: Generation, fileSpanLimit: Int64?,
        to id: ReaderID, _ reader: inout Reader
    ) throws(LoaderError) -> ReadPart {
        do {
            if let fileSpanLimit {
                let range = ByteRange(offset: reader.position, length: min(available, fileSpanLimit))
                if let span = try store.fileSpan(range, of: key, generation: generation) {
                    deliver(offset: range.lowerBound, count: range.length, source: source, of: generation, to: id, &reader)
                    return .file(FileChunk(span: span, source: source))
                }
            }
            // A reader that takes spans takes as many bytes at once when the store has no span to
            // give (an encrypted store, a file system without descriptors), up to a mebibyte:
            // one read of the store, not sixteen.
            let limit = fileSpanLimit.map { min($0, Self.largestRead) } ?? Int64(configuration.chunkSize)
            let range = ByteRange(offset: reader.position, length: min(available, max(limit, Int64(configuration.chunkSize))))
            let bytes = try store.read(range, from: key, generation: generation)
            deliver(offset: range.lowerBound, count: range.length, source: source, of: generation, to: id, &reader)
            return .bytes(ByteChunk(offset: range.lowerBound, bytes: bytes, source: source))
        } catch {
            throw .store(error)
        }
    }

    /// The most cached bytes one read of the store hands a reader that takes file spans.
    static let largestRead: Int64 = 1 << 20

    /// The reader's next chunk from the bytes fetches just wrote (or are about to), when they
    /// hold its position; counted as cached when they had arrived before the reader came.
    private func recentChunk(_ id: ReaderID, reader: inout Reader) -> ByteChunk? {
        let (source, sourceRun) = Self.source(at: reader)
        let limit = min(Int64(configuration.chunkSize), (reader.end ?? .max) - reader.position, sourceRun)
        guard
            let (bytes, generation) = recent.bytes(
                at: reader.position, generation: reader.generation ?? reader.promised,
                limit: limit)
        else {
            return nil
        }
        let chunk = ByteChunk(offset: reader.position, bytes: bytes, source: source)
        deliver(offset: chunk.offset, count: Int64(bytes.count), source: source, of: generation, to: id, &reader)
        return chunk
    }

    /// Where the reader's next byte counts as coming from, and how many bytes from its position
    /// on count the same: a chunk never straddles the edge of what was cached when the reader
    /// came, so that each byte is counted for the right source.
    private static func source(at reader: Reader) -> (ByteChunk.Source, run: Int64) {
        let hit = reader.cachedAtStart.contiguousLength(from: reader.position)
        if hit > 0 { return (.cache, hit) }
        let miss = reader.cachedAtStart.firstRange(after: reader.position).map { $0.lowerBound - reader.position }
        return (.network, miss ?? .max)
    }

    /// Moves `reader` past the `count` bytes from `offset` of `generation` it is handed, and
    /// lets fetches waiting for it see it move.
    private func deliver(
        offset: Int64, count: Int64, source: ByteChunk.Source, of generation: Generation,
        to id: ReaderID, _ reader: inout Reader
    ) {
        reader.position = offset + count
        reader.generation = generation
        reader.cachedRun = source == .cache ? reader.cachedRun + count : 0
        readers[id] = reader
        readerAdvanced(reader)
    }

    /// The stored record, `nil` while nothing is known of the resource.
    func storedRecord() throws(LoaderError) -> ResourceRecord? {
        do { return try store.record(for: key) } catch { throw .store(error) }
    }

    /// The stored record or, while a miss's fetch creates the resource, the one it announced
    /// (``announcement``): what the origin said is known before the store holds it.
    func knownRecord() throws(LoaderError) -> ResourceRecord? {
        try storedRecord() ?? announcement.record
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

    /// Wakes every waiting reader (or those `isReady` picks); each checks again what it can read.
    func wakeReaders(where isReady: (Reader) -> Bool = { _ in true }) {
        let woken = waiters.filter { id, _ in readers[id].map(isReady) ?? true }
        for id in woken.keys { waiters[id] = nil }
        for continuation in woken.values { continuation.resume() }
    }

    /// A reader consumed a chunk: paused sequential fetches check whether it caught up, and
    /// ranged fetches whose threshold it reached (any, for a bounded reader) whether to ask for
    /// more. Waking a ranged fetch on every chunk would cost a decision per 64 KiB.
    func readerAdvanced(_ reader: Reader) {
        resumeFetches(waits.readerAdvanced(FetchWaits.Reader(position: reader.position, end: reader.end)))
    }

    /// Wakes ranged fetch `id` if it waits for demand that `reader` may bring: any bounded
    /// reader, or an open-ended one at the fetch's threshold.
    func wakeDemand(of id: FetchID, for reader: Reader) {
        if waits.wake(id, for: FetchWaits.Reader(position: reader.position, end: reader.end)) { resumeFetches([id]) }
    }

    /// Lets fetches check again what their readers need: paused ones whether their readers
    /// caught up, ranged ones whether to ask for more.
    func readersMoved() {
        resumeFetches(waits.readersMoved())
    }

    /// Resumes the tasks of fetches ``waits`` woke.
    func resumeFetches(_ ids: [FetchID]) {
        for id in ids { waitingFetches.removeValue(forKey: id)?.resume() }
    }

    /// Suspends fetch `id`'s task until ``waits`` wakes it for `kind`.
    func suspendFetch(_ id: FetchID, _ kind: FetchWaits.Kind) async {
        await withCheckedContinuation { continuation in
            waits.wait(id, kind)
            waitingFetches[id] = continuation
        }
    }
}

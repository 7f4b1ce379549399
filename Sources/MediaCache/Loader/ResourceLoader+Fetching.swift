import Foundation

extension ResourceLoader {
    /// How a fetch writes the body it was answered with.
    struct Acceptance: Sendable {
        /// Where the body's first byte goes.
        var offset: Int64
        /// The generation the bytes belong to.
        var generation: Generation
        /// One past the last byte the body may carry, when known.
        var limit: Int64?
        /// Whether the resource is new and only announced: the fetch creates it in the store
        /// (``FetchRunner``) once the body's first chunk is with the readers.
        var isAnnounced = false
    }

    /// Stops every fetch and returns once their tasks have ended; readers fail with
    /// ``LoaderError/cancelled`` from now on instead of starting another.
    func stopFetches() async {
        isStopped = true
        let tasks = Array(fetchTasks.values)
        for task in tasks { task.cancel() }
        // A fetch waiting for its readers (paused ahead of them) is woken to see the stop.
        for id in fetchTasks.keys where waits.stop(id) { resumeFetches([id]) }
        for timer in drainTimers.values { timer.cancel() }
        for id in readers.keys { readers[id]?.failure = .cancelled }
        wakeReaders()
        for task in tasks { await task.value }
    }

    func startFetch(_ id: FetchID, from start: Int64) {
        let runner = FetchRunner(id: id, loader: self, isRanged: !plan.isSequential)
        holds.retain()
        // A ranged fetch's first request is decided here, as the fetch starts: its task makes the
        // request at once, without a call back into the loader first.
        let first = runner.isRanged ? pacedRequest(for: id, requested: start, inFlight: 0) : nil
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *) {
            // Until its answer's head is recorded, on the thread that reads the answer (see
            // `MediaOrigin.requestExecutor(for:)`); `FetchRunner` takes the body elsewhere.
            fetchTasks[id] = Task(executorPreference: origin.requestExecutor(for: url)) {
                await runner.run(from: start, first: first)
            }
        } else {
            fetchTasks[id] = Task { await runner.run(from: start, first: first) }
        }
    }

    /// Fetches nobody waits on any more: a sequential one stops at once (it could only start
    /// over from byte 0); a ranged one drains what it asked for, for at most
    /// ``MediaLoader/Configuration/drainTimeout``.
    func release(_ orphaned: [FetchID]) {
        for id in orphaned {
            if plan.isSequential {
                fetchTasks[id]?.cancel()
                if waits.stop(id) { resumeFetches([id]) }
                continue
            }
            drainTimers[id]?.cancel()
            let timeout = configuration.drainTimeout
            drainTimers[id] = Task {
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                self.drainTimedOut(id)
            }
        }
        // A draining fetch whose requests are all in asks for nothing more and ends.
        if !orphaned.isEmpty { readersMoved() }
    }

    private func drainTimedOut(_ id: FetchID) {
        drainTimers[id] = nil
        if plan.drainExpired(id) { fetchTasks[id]?.cancel() }
    }

    /// What ranged fetch `id`, having asked for everything before `requested` with `inFlight`
    /// requests still arriving, should do now; `demand` is the reader movement the decision saw,
    /// for ``waitForDemand(_:after:)``.
    func nextRequest(for id: FetchID, requested: Int64, inFlight: Int) -> (RequestPacing.Decision, demand: Int) {
        guard fetchTasks[id] != nil else {
            waits.decided(id, nil)
            return (.done, waits.epoch)
        }
        return pacedRequest(for: id, requested: requested, inFlight: inFlight)
    }

    /// ``nextRequest(for:requested:inFlight:)`` for a fetch whose task runs or is starting.
    private func pacedRequest(for id: FetchID, requested: Int64, inFlight: Int) -> (RequestPacing.Decision, demand: Int) {
        let decision = decideRequest(for: id, requested: requested, inFlight: inFlight)
        waits.decided(id, decision)
        return (decision, waits.epoch)
    }

    /// What ranged fetch `id` asks for next, from its readers, what is stored and what other
    /// fetches bring.
    private func decideRequest(for id: FetchID, requested: Int64, inFlight: Int) -> RequestPacing.Decision {
        guard let fetch = plan.fetches[id], !plan.isSequential else { return .done }
        // A miss's announced record gives its length before the store holds it.
        let record = try? knownRecord()
        let available = record?.available ?? ByteRangeSet()
        // Bytes someone else fetched end this fetch's gap: it asks for nothing from there on.
        if available.contains(requested) { return .done }
        let nextCached = available.firstRange(after: requested)?.lowerBound
        // Nor into bytes another fetch is bringing.
        let nextFetch = plan.fetches.lazy.filter { $0.key != id && $0.value.start >= requested }.map(\.value.start).min()
        let limit = [fetch.end, record?.contentInfo.totalLength, nextCached, nextFetch].compactMap { $0 }.min()
        let attached = plan.readers(of: id).compactMap { readers[$0] }
            .map { RequestPacing.Reader(position: $0.position, end: $0.end, takesAll: $0.takesAll) }
        let decision = pacing.decide(
            start: fetch.start, requested: requested, inFlight: inFlight, readers: attached,
            limit: limit)
        if case .request(let end) = decision { plan.fetch(id, requested: end) }
        return decision
    }

    /// A request of fetch `id` for the bytes from `offset` was answered after `wait`: the
    /// pacing learns from it (``RequestPacing/requestAnswered(after:from:readers:)``).
    private func requestAnswered(_ id: FetchID, from offset: Int64, after wait: Duration) {
        let attached = plan.readers(of: id).compactMap { readers[$0] }.map { RequestPacing.Reader(position: $0.position, end: $0.end) }
        pacing.requestAnswered(after: wait, from: offset, readers: attached)
    }

    /// Returns once a reader joined, left or came back after `demand` (see
    /// ``nextRequest(for:requested:inFlight:)``), an open-ended reader reached the fetch's
    /// threshold, or the calling task is cancelled.
    func waitForDemand(_ id: FetchID, after demand: Int) async {
        let attached = plan.readers(of: id).compactMap { readers[$0] }.map { FetchWaits.Reader(position: $0.position, end: $0.end) }
        guard waits.mayWaitForDemand(id, after: demand, readers: attached) else { return }
        await withTaskCancellationHandler {
            await suspendFetch(id, .demand)
        } onCancel: {
            Task { await self.stopWaitingForDemand(id) }
        }
    }

    private func stopWaitingForDemand(_ id: FetchID) {
        if waits.stop(id) { resumeFetches([id]) }
    }

    /// Interprets the head of a fetch's response: records what it says about the content and
    /// tells the fetch where to write, or `nil` to stop. A ranged request's wait for its head,
    /// `answeredAfter`, comes along (see ``requestAnswered(_:from:after:)``): one call into the
    /// loader between a miss's head and its reader, not two.
    func accept(
        _ kind: OriginResponse.Kind, info: ContentInfo, fetch id: FetchID, requestedOffset: Int64,
        answeredAfter: Duration?
    ) throws(LoaderError) -> Acceptance? {
        if let answeredAfter { requestAnswered(id, from: requestedOffset, after: answeredAfter) }
        guard plan.fetches[id] != nil else { return nil }
        let before = try storedRecord()
        switch kind {
        case .rangeNotSatisfiable:
            // The end of the resource when the length says so; otherwise the origin refuses
            // ranges, and a sequential fill finds the length without guessing it.
            if let length = info.totalLength ?? before?.contentInfo.totalLength, requestedOffset >= length {
                try record(ContentInfo(totalLength: length), replacing: before)
            } else {
                plan.becomeSequential()
            }
            return nil
        case .notModified:
            throw .origin(.invalidResponse("304 Not Modified to a request without validators", url: url))
        case .partial(let offset, let length):
            guard offset == requestedOffset else {
                throw .origin(.invalidResponse("Content-Range starts at \(offset), not at the requested \(requestedOffset)", url: url))
            }
            let limit = length.map { offset + $0 }
            if before == nil, let record = announce(info, by: id) {
                return Acceptance(offset: offset, generation: record.generation, limit: limit, isAnnounced: true)
            }
            let generation = try record(info, replacing: before)
            return Acceptance(offset: offset, generation: generation, limit: limit)
        case .full:
            if let before, before.contentInfo.isDifferentVersion(from: info) {
                try record(info, replacing: before)
                return nil
            }
            plan.becomeSequential()
            if before == nil, let record = announce(info, by: id) {
                return Acceptance(offset: 0, generation: record.generation, limit: info.totalLength, isAnnounced: true)
            }
            let generation = try record(info, replacing: before)
            return Acceptance(offset: 0, generation: generation, limit: info.totalLength)
        }
    }

    /// Hands the record the origin's answer makes for a resource the store does not hold to
    /// the readers waiting for it (a miss's head), before the store creates the resource: the
    /// fetch does that next, outside this actor, while they answer (see
    /// ``created(_:by:)``). `nil` when another fetch's announcement is under way or the store
    /// would refuse `info`: the fetch then records it at once, as for a known resource.
    private func announce(_ info: ContentInfo, by id: FetchID) -> ResourceRecord? {
        guard let record = try? store.newRecord(info, for: url), announcement.announce(record, by: id) else { return nil }
        wakeReaders(where: \.awaitsRecord)
        return record
    }

    /// Fetch `id` created the resource it announced, at `generation`: the store's record is the
    /// truth from now on. A generation other than the announced one means the resource was
    /// created meanwhile from another answer (a probe's, another fetch's) naming another version.
    func created(_ generation: Generation, by id: FetchID) {
        if let moved = announcement.created(generation, by: id) { contentMoved(to: moved) }
    }

    /// Fetch `id` found the store holding another version than the one it announced, recorded
    /// from a later answer (``MediaStore/createAnnounced(_:for:)``): its announcement is over.
    func announcementSuperseded(by id: FetchID) {
        guard let record = announcement.superseded(by: id) else { return }
        supersede(record, of: id, by: (try? storedRecord())?.generation ?? record.generation)
    }

    /// Stores `info`; when it names another version, readers that got bytes of the old one
    /// fail with ``LoaderError/contentChanged(key:from:to:)`` and every fetch stops. While a
    /// miss is only announced, `info` naming another version came later and wins.
    @discardableResult
    private func record(_ info: ContentInfo, replacing before: ResourceRecord?) throws(LoaderError) -> Generation {
        let generation: Generation
        do { generation = try store.setContentInfo(info, for: url) } catch { throw .store(error) }
        if let old = before?.generation, old != generation { contentMoved(to: generation) }
        if before == nil {
            if let (fetch, record) = announcement.recorded(info) { supersede(record, of: fetch, by: generation) }
            wakeReaders(where: \.awaitsRecord)
        }
        return generation
    }

    /// The version an announcement (`record`, by `fetch`) stood for is over before the
    /// store held it: another version was recorded at `generation`, likely under the same
    /// generation number. Every reader handed a record or a byte so far had them from the
    /// announcement, so each fails with ``LoaderError/contentChanged(key:from:to:)``; the
    /// announcing fetch stops, and its first chunk is dropped rather than kept for the new
    /// version's readers.
    private func supersede(_ record: ResourceRecord, of fetch: FetchID, by generation: Generation) {
        configuration.logger.info(
            "content changed on the origin before a miss was stored",
            metadata: ["key": "\(key)", "generation": "\(generation)"])
        for (id, reader) in readers where (reader.generation ?? reader.promised) != nil {
            readers[id]?.failure = .contentChanged(key: key, from: record.generation, to: generation)
        }
        fetchTasks[fetch]?.cancel()
        recent.removeAll()
        wakeReaders()
    }

    /// The stored content moved to `generation`: readers that got bytes (or a record) of
    /// another one fail with ``LoaderError/contentChanged(key:from:to:)`` and every fetch stops.
    func contentMoved(to generation: Generation) {
        configuration.logger.info("content changed on the origin", metadata: ["key": "\(key)", "generation": "\(generation)"])
        for (id, reader) in readers {
            if let delivered = reader.generation ?? reader.promised, delivered != generation {
                readers[id]?.failure = .contentChanged(key: key, from: delivered, to: generation)
            }
        }
        for task in fetchTasks.values { task.cancel() }
        recent.removeAll()
        wakeReaders()
    }

    /// The first chunk of a response arrived and is about to be stored: it is kept for
    /// readers at once (``RecentWrites``), and readers that have had no byte yet are woken,
    /// so that a miss's first bytes (a playlist check's, a reader's in memory) do not wait for
    /// its data file to be created. Readers of file spans wait for the store as before.
    ///
    /// A fetch whose announcement is over (``supersede(_:of:by:)``) keeps nothing: its
    /// generation number may be another version's now.
    func arriving(_ bytes: Data, at offset: Int64, generation: Generation, fetch id: FetchID, isAnnounced: Bool) {
        guard !isAnnounced || announcement.isUnderWay(by: id) else { return }
        recent.append(bytes, at: offset, generation: generation)
        wakeReaders { $0.generation == nil && $0.position == offset }
    }

    /// A fetch wrote `bytes` at `offset` (and everything before it); returns whether it should
    /// go on. The bytes are kept for readers close behind (``RecentWrites``) unless `isKept`
    /// says ``arriving(_:at:generation:)`` kept them already. A sequential fetch first pauses
    /// while it is more than the readahead ahead of every reader it serves; a ranged one never
    /// needs to, its requests end within its lead.
    func wrote(fetch id: FetchID, _ bytes: Data, at offset: Int64, generation: Generation, isKept: Bool) async -> Bool {
        guard let fetch = plan.fetches[id] else { return false }
        if !isKept { recent.append(bytes, at: offset, generation: generation) }
        let position = offset + Int64(bytes.count)
        guard plan.isSequential else {
            // Two requests may be arriving: the fetch has reached the end of what is contiguous,
            // and only readers at a byte that is there now have something to read.
            let available = (try? store.availableRanges(for: key)) ?? ByteRangeSet()
            _ = plan.fetch(id, reached: fetch.position + available.contiguousLength(from: fetch.position))
            wakeReaders { available.contains($0.position) }
            return true
        }
        _ = plan.fetch(id, reached: position)
        wakeReaders()
        while let furthest = plan.readers(of: id).compactMap({ readers[$0]?.position }).max(),
            position - furthest > configuration.readahead, fetchTasks[id] != nil, !isStopped
        {
            await suspendFetch(id, .paused)
        }
        return plan.fetches[id] != nil && fetchTasks[id] != nil && !isStopped
    }

    /// A fetch is over. `endOfResource` is where the resource ended, if the body showed it; it
    /// becomes the length when none is known.
    func fetchEnded(_ id: FetchID, endOfResource: Int64?, failure: LoaderError?) {
        let attached = plan.readers(of: id)
        plan.fetchEnded(id)
        announcement.ended(id)
        if fetchTasks.removeValue(forKey: id) != nil { holds.release() }
        if fetchTasks.isEmpty { recent.removeAll() }
        drainTimers.removeValue(forKey: id)?.cancel()
        if waits.ended(id) { resumeFetches([id]) }
        var failure = failure
        let knownLength = (try? store.record(for: key))?.contentInfo.totalLength
        if let endOfResource, knownLength == nil {
            do {
                try store.setContentInfo(ContentInfo(totalLength: endOfResource), for: url)
            } catch {
                // An empty body of unknown length: the store keeps no empty resource, and its
                // readers would otherwise ask the origin again and again. Any other failure
                // leaves the length to be learned by the next fetch.
                if endOfResource == 0 { failure = failure ?? .store(error) }
            }
        }
        if let failure {
            configuration.logger.warning("fetch failed", metadata: ["key": "\(key)", "error": "\(failure)"])
            for reader in attached { readers[reader]?.failure = failure }
        }
        wakeReaders()
    }
}

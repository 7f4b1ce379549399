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
    }

    func startFetch(_ id: FetchID, from start: Int64, to end: Int64?) {
        let runner = FetchRunner(id: id, loader: self, isRanged: !plan.isSequential)
        fetchTasks[id] = Task { await runner.run(from: start, to: end) }
    }

    /// Interprets the head of a fetch's response: records what it says about the content and
    /// tells the fetch where to write, or `nil` to stop.
    func accept(_ kind: OriginResponse.Kind, info: ContentInfo, fetch id: FetchID, requestedOffset: Int64)
        throws(LoaderError) -> Acceptance?
    {
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
            let generation = try record(info, replacing: before)
            return Acceptance(offset: offset, generation: generation, limit: length.map { offset + $0 })
        case .full:
            if let before, before.contentInfo.isDifferentVersion(from: info) {
                try record(info, replacing: before)
                return nil
            }
            plan.becomeSequential()
            let generation = try record(info, replacing: before)
            return Acceptance(offset: 0, generation: generation, limit: info.totalLength)
        }
    }

    /// Stores `info`; when it names another version, readers that got bytes of the old one
    /// fail with ``LoaderError/contentChanged(key:from:to:)`` and every fetch stops.
    @discardableResult
    private func record(_ info: ContentInfo, replacing before: ResourceRecord?) throws(LoaderError) -> Generation {
        let generation: Generation
        do { generation = try store.setContentInfo(info, for: url) } catch { throw .store(error) }
        if let old = before?.generation, old != generation { contentMoved(to: generation) }
        return generation
    }

    /// The stored content moved to `generation`: readers that got bytes of another one fail
    /// with ``LoaderError/contentChanged(key:from:to:)`` and every fetch stops.
    func contentMoved(to generation: Generation) {
        configuration.logger.info("content changed on the origin", metadata: ["key": "\(key)", "generation": "\(generation)"])
        for (id, reader) in readers {
            if let delivered = reader.generation, delivered != generation {
                readers[id]?.failure = .contentChanged(key: key, from: delivered, to: generation)
            }
        }
        cancel(Array(fetchTasks.keys))
        wakeReaders()
    }

    /// A fetch wrote everything before `position`; returns whether it should go on, after
    /// pausing while it is more than the readahead ahead of every reader it serves.
    func wrote(fetch id: FetchID, upTo position: Int64) async -> Bool {
        let available = (try? store.availableRanges(for: key)) ?? ByteRangeSet()
        guard plan.fetch(id, reached: position, nextIsCached: available.contains(position)) else {
            wakeReaders()
            return false
        }
        wakeReaders()
        while let furthest = plan.readers(of: id).compactMap({ readers[$0]?.position }).max(),
              position - furthest > configuration.readahead, fetchTasks[id] != nil {
            await withCheckedContinuation { pausedFetches[id] = $0 }
        }
        return isNeeded(id)
    }

    /// Whether fetch `id` still has readers to serve.
    func isNeeded(_ id: FetchID) -> Bool {
        plan.fetches[id] != nil && fetchTasks[id] != nil
    }

    /// A fetch is over. `endOfResource` is where the resource ended, if the body showed it; it
    /// becomes the length when none is known.
    func fetchEnded(_ id: FetchID, endOfResource: Int64?, failure: LoaderError?) {
        let attached = plan.readers(of: id)
        plan.fetchEnded(id)
        fetchTasks[id] = nil
        let knownLength = (try? store.record(for: key))?.contentInfo.totalLength
        if let endOfResource, endOfResource > 0, knownLength == nil {
            _ = try? store.setContentInfo(ContentInfo(totalLength: endOfResource), for: url)
        }
        if let failure {
            configuration.logger.warning("fetch failed", metadata: ["key": "\(key)", "error": "\(failure)"])
            for reader in attached { readers[reader]?.failure = failure }
        }
        wakeReaders()
    }
}

import Foundation

/// Drives one fetch for a ``ResourceLoader``: sends origin requests as ``RequestPacing``
/// decides (at most two arriving at once, so the next is under way before the current one runs
/// dry), writes each body into the store as it arrives, and resumes a broken transfer from the
/// byte where it stopped.
///
/// When the fetch's readers leave, it asks for nothing more but keeps reading what it asked
/// for, within ``MediaLoader/Configuration/drainTimeout``: the origin has sent those bytes already,
/// and thrown away they would be fetched again.
struct FetchRunner: Sendable {
    let id: FetchPlan.FetchID
    let loader: ResourceLoader
    /// Whether to ask for byte ranges; a sequential fill asks for the whole resource.
    let isRanged: Bool

    private var url: URL { loader.url }
    private var key: ResourceKey { loader.key }
    private var store: MediaStore { loader.store }
    private var configuration: MediaLoader.Configuration { loader.configuration }

    /// What one request ended with.
    private enum Outcome {
        /// Stop: the resource ended (at `endOfResource` when its length was unknown), or the
        /// fetch was cancelled or is no longer in the plan.
        case finished(endOfResource: Int64?)
        /// The request's range arrived whole.
        case rangeDone
        /// The transfer broke at `position`; try again from there.
        case broken(OriginError, position: Int64)
    }

    /// What the fetch waits for next.
    private enum Event {
        case requestEnded(endOfResource: Int64?, failure: LoaderError?, isComplete: Bool)
        case demandMoved
    }

    /// Runs the fetch from byte `start`; a ranged fetch's `first` request is the one the loader
    /// decided as it started the fetch (``ResourceLoader/nextRequest(for:requested:inFlight:)``).
    func run(from start: Int64, first: (RequestPacing.Decision, demand: Int)?) async {
        let result: (endOfResource: Int64?, failure: LoaderError?)
        if isRanged {
            result = await runRanged(from: start, first: first)
        } else {
            let ended = await request(from: start, to: nil)
            result = (ended.endOfResource, ended.failure)
        }
        await loader.fetchEnded(
            id, endOfResource: result.endOfResource,
            failure: Task.isCancelled ? nil : result.failure)
    }

    /// Requests as the pacing decides, until nothing more is needed and nothing is arriving.
    private func runRanged(
        from start: Int64, first: (RequestPacing.Decision, demand: Int)?
    )
        async -> (endOfResource: Int64?, failure: LoaderError?)
    {
        await withTaskGroup(of: Event.self) { group in
            var decided = first
            var requested = start
            var inFlight = 0
            var isWatching = false
            var isStopping = false
            var demand = 0
            var result: (endOfResource: Int64?, failure: LoaderError?) = (nil, nil)
            while !Task.isCancelled {
                var decision = RequestPacing.Decision.done
                while !isStopping {
                    if let next = decided {
                        (decision, demand) = next
                        decided = nil
                    } else {
                        (decision, demand) = await loader.nextRequest(for: id, requested: requested, inFlight: inFlight)
                    }
                    guard case .request(let end) = decision else { break }
                    let from = requested
                    group.addTask {
                        let ended = await request(from: from, to: end)
                        return .requestEnded(
                            endOfResource: ended.endOfResource, failure: ended.failure,
                            isComplete: ended.isComplete)
                    }
                    inFlight += 1
                    requested = end
                }
                if inFlight == 0, decision == .done { break }
                // A stopping fetch only waits for its requests to end. Readers moving cannot
                // change that, and its `demand` is no longer refreshed: a watch would return at
                // once, over and over, on the thread that reads those very requests.
                if !isWatching, !isStopping {
                    group.addTask { [demand] in
                        await loader.waitForDemand(id, after: demand)
                        return .demandMoved
                    }
                    isWatching = true
                }
                switch await group.next() {
                case .requestEnded(let endOfResource, let failure, let isComplete):
                    inFlight -= 1
                    if let failure { result.failure = failure }
                    if let endOfResource { result.endOfResource = endOfResource }
                    if !isComplete { isStopping = true }
                case .demandMoved:
                    isWatching = false
                case nil:
                    isStopping = true
                }
                if result.failure != nil { break }
            }
            group.cancelAll()
            return result
        }
    }

    /// Fetches `start..<end` (to the end of the resource when `end` is `nil`), retrying broken
    /// transfers; `isComplete` is whether every byte of the range arrived.
    private func request(
        from start: Int64, to end: Int64?
    ) async
        -> (endOfResource: Int64?, failure: LoaderError?, isComplete: Bool)
    {
        var position = start
        var attempt = 1
        while true {
            do {
                switch try await transfer(from: position, to: end) {
                case .finished(let endOfResource):
                    return (endOfResource, nil, false)
                case .rangeDone:
                    return (nil, nil, true)
                case .broken(let error, let reached):
                    attempt = reached > position ? 2 : attempt + 1
                    position = reached
                    guard let delay = configuration.retry.delay(beforeAttempt: attempt), !Task.isCancelled else {
                        return (nil, .origin(error), false)
                    }
                    configuration.logger.info(
                        "transfer broke; retrying",
                        metadata: [
                            "url": "\(url)", "at": "\(position)", "attempt": "\(attempt)", "error": "\(error)",
                        ])
                    do { try await configuration.clock.sleep(for: delay) } catch { return (nil, nil, false) }
                }
            } catch {
                return (nil, error, false)
            }
        }
    }

    /// Runs `body` on Swift's global executor, off the origin's ``MediaOrigin/requestExecutor(for:)``:
    /// a body's chunks are written to the store and handed to readers there, while the thread
    /// that reads the origin's connection reads on.
    private func onGlobalExecutor(_ body: () async throws -> Void) async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *) {
            try await withTaskExecutorPreference(globalConcurrentExecutor, operation: body)
        } else {
            try await body()
        }
    }

    /// One request and its body.
    private func transfer(from requested: Int64, to end: Int64?) async throws(LoaderError) -> Outcome {
        let validator = (try? store.record(for: key))?.contentInfo.ifRangeValidator
        let response: OriginResponse
        let sent = ContinuousClock.now
        do {
            let request =
                isRanged
                ? OriginRequest(url: url, bytes: ByteRequest(offset: requested, end: end), ifRange: validator)
                : OriginRequest(url: url)
            response = try await loader.origin.fetch(request)
        } catch {
            if Task.isCancelled { return .finished(endOfResource: nil) }
            let failure = OriginError.failure(error, url: url)
            guard failure.isTransient else { throw .origin(failure) }
            return .broken(failure, position: requested)
        }
        let answeredAfter = isRanged ? ContinuousClock.now - sent : nil
        guard
            let accepted = try await loader.accept(
                response.kind, info: response.info, fetch: id,
                requestedOffset: requested, answeredAfter: answeredAfter)
        else {
            return .finished(endOfResource: nil)
        }
        var position = accepted.offset
        var generation = accepted.generation
        var isCreated = !accepted.isAnnounced
        var stoppedEarly = false
        do {
            try await onGlobalExecutor {
                for try await chunk in response.body {
                    var bytes = chunk
                    let overflow = accepted.limit.map { position + Int64(bytes.count) > $0 } ?? false
                    if overflow, let limit = accepted.limit { bytes = bytes.prefix(Int(limit - position)) }
                    let isFirst = position == accepted.offset
                    if isFirst {
                        await loader.arriving(bytes, at: position, generation: generation, fetch: id, isAnnounced: !isCreated)
                        if !isCreated {
                            guard let created = try await create(response.info) else {
                                stoppedEarly = true
                                break
                            }
                            generation = created
                            isCreated = true
                        }
                    }
                    try store.write(bytes, at: position, to: key, generation: generation)
                    loader.statistics.fetchedFromOrigin(bytes.count, of: key)
                    let offset = position
                    position += Int64(bytes.count)
                    if overflow {
                        throw LoaderError.origin(.invalidResponse("the body is longer than announced", url: url))
                    }
                    guard await loader.wrote(fetch: id, bytes, at: offset, generation: generation, isKept: isFirst) else {
                        stoppedEarly = true
                        break
                    }
                }
            }
        } catch let error as LoaderError {
            throw error
        } catch let error as MediaStoreError {
            if error.code == .staleGeneration { return .finished(endOfResource: nil) }
            throw .store(error)
        } catch {
            if Task.isCancelled { return .finished(endOfResource: nil) }
            if !isCreated, try await !createBeforeRetrying(response.info) { return .finished(endOfResource: nil) }
            return .broken(OriginError.failure(error, url: url), position: position)
        }
        if stoppedEarly { return .finished(endOfResource: nil) }
        if let limit = accepted.limit, position < limit {
            if !isCreated, try await !createBeforeRetrying(response.info) { return .finished(endOfResource: nil) }
            return .broken(
                .transport("the body ended at byte \(position) of \(limit)", url: url),
                position: position)
        }
        if let end, position >= end { return .rangeDone }
        return .finished(endOfResource: position)
    }

    /// Creates the announced resource when the body broke before its first chunk: the retry
    /// then asks for the same version (`If-Range`), and a changed one fails the readers that
    /// were handed the announced record instead of sending them another version's bytes.
    /// `false` when there is nothing to retry: the store holds a later answer's version.
    private func createBeforeRetrying(_ info: ContentInfo) async throws(LoaderError) -> Bool {
        do { return try await create(info) != nil } catch { throw .store(error) }
    }

    /// Creates the resource the loader announced from `info` (its readers answer meanwhile:
    /// the store's index insert happens here, outside the loader), and returns the generation
    /// its bytes are written with. `nil` when a later answer has recorded another version
    /// meanwhile: it stays, and this fetch, whose bytes are of the older one, stops.
    private func create(_ info: ContentInfo) async throws(MediaStoreError) -> Generation? {
        guard let generation = try store.createAnnounced(info, for: url) else {
            await loader.announcementSuperseded(by: id)
            return nil
        }
        await loader.created(generation, by: id)
        return generation
    }
}

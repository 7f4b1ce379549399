import Foundation

/// Fetches the start of resources before a player asks, so that the next item of a feed starts
/// at once.
///
/// Preloads read through the same ``MediaLoader`` as playback: nothing is fetched twice, and
/// what is already cached is not fetched again. Jobs run by priority, then newest first, at
/// most ``Preloader/Configuration/maxConcurrentJobs`` at once, and pause while a player waits for
/// the network. They need no handle: cancel them by URL or all at once.
///
/// ```swift
/// let preloader = Preloader(loader: loader)
/// for (rank, url) in feed.upcoming.enumerated() {
///     await preloader.preload(url, amount: .seconds(5), priority: -rank)
/// }
/// for await job in await preloader.updates() where job.state.isFinal {
///     print(job.url, job.state)
/// }
/// await preloader.cancel(feed.skipped)
/// ```
public actor Preloader {
    /// The loader preloads read through.
    public nonisolated let loader: MediaLoader
    /// Scheduling and pacing.
    public nonisolated let configuration: Preloader.Configuration

    /// What one preload asks for.
    struct Request: Sendable {
        var url: URL
        var amount: PreloadAmount
        /// The bits per second to choose a variant by; the latest request's wins.
        var maximumBandwidth: Int?
    }

    private var queue: JobQueue<ResourceKey, Request>
    private let fetcher: TargetFetcher
    private var tasks: [ResourceKey: Task<Void, Never>] = [:]
    private var reports: JobReports<ResourceKey, PreloadJob>

    /// Creates a preloader over `loader`.
    public init(loader: MediaLoader, configuration: Preloader.Configuration = Preloader.Configuration()) {
        self.loader = loader
        self.configuration = configuration
        reports = JobReports(retention: .lastEnded(configuration.endedJobsKept))
        queue = JobQueue(limit: configuration.maxConcurrentJobs, order: .priorityThenNewest) { earlier, later in
            Request(url: later.url, amount: earlier.amount.merged(with: later.amount), maximumBandwidth: later.maximumBandwidth)
        }
        fetcher = TargetFetcher(
            loader: loader,
            policy: FetchPolicy(
                purpose: .preload, step: configuration.stepSize,
                quietPeriod: configuration.playbackQuietPeriod))
    }

    /// The priorities the command line and the API accept.
    public static let priorityRange = -1_000...1_000

    /// Queues a preload of `amount` of `url`; a higher `priority` runs first.
    ///
    /// Asking again for a queued or running resource is the same job, with the larger amount
    /// and priority. An amount that is not ``PreloadAmount/isValid`` ends the job at once as
    /// failed, with the reason in ``PreloadJob/error``.
    ///
    /// A URL one of ``Preloader/Configuration/planners`` plans, such as an HLS playlist, is
    /// preloaded as its planner says: for HLS, what a player starts with, the variant chosen
    /// by `maximumBandwidth` (bits per second) when given.
    public func preload(_ url: URL, amount: PreloadAmount, priority: Int = 0, maximumBandwidth: Int? = nil) {
        let key = loader.store.key(for: url)
        do {
            _ = try amount.checked()
        } catch {
            guard reports[key].map({ $0.state.isFinal }) ?? true else { return }
            report(PreloadJob(url: url, key: key, amount: amount, priority: priority, state: .queued))
            end(key, .failed, error: "\(error)")
            return
        }
        let actions = queue.add(key, Request(url: url, amount: amount, maximumBandwidth: maximumBandwidth), priority: priority)
        if reports[key].map({ $0.state.isFinal }) ?? true {
            report(PreloadJob(url: url, key: key, amount: amount, priority: priority, state: .queued))
        } else if let merged = queue.waiting[key], reports[key]?.state == .queued {
            update(key) { report in
                report.amount = merged.request.amount
                report.priority = merged.priority
            }
        }
        perform(actions)
    }

    /// Cancels the preload of `url`, queued or running; its fetched bytes stay cached.
    public func cancel(_ url: URL) {
        let key = loader.store.key(for: url)
        if reports[key]?.state == .queued { end(key, .cancelled) }
        perform(queue.cancel(key))
    }

    /// Cancels every preload.
    public func cancelAll() {
        for job in reports.all where job.state == .queued { end(job.key, .cancelled) }
        perform(queue.cancelAll())
    }

    /// Cancels every preload and returns once none is running, so that the store can close.
    public func shutdown() async {
        cancelAll()
        while let task = tasks.values.first {
            await task.value
        }
    }

    /// Every running, queued and recently ended job: running first, then queued by rank, then
    /// ended, newest first.
    public var jobs: [PreloadJob] {
        let running = reports.all.filter { $0.state == .running }.sorted { $0.url.absoluteString < $1.url.absoluteString }
        let queued = queue.ranked.compactMap { reports[$0.key] }
        return running + queued + reports.endedLatestFirst
    }

    /// The jobs of `urls` among ``jobs``, in the same order.
    public func jobs(for urls: [URL]) -> [PreloadJob] {
        let keys = Set(urls.map { loader.store.key(for: $0) })
        return jobs.filter { keys.contains($0.key) }
    }

    /// Every change to any job from now on, as it happens.
    public func updates() -> AsyncStream<PreloadJob> {
        reports.subscribe { id in Task { await self.unsubscribe(id) } }
    }

    private func unsubscribe(_ id: UUID) {
        reports.unsubscribe(id)
    }

    private func perform(_ actions: [JobQueue<ResourceKey, Request>.Action]) {
        for action in actions {
            switch action {
            case .start(let job):
                report(
                    PreloadJob(
                        url: job.request.url, key: job.key, amount: job.request.amount, priority: job.priority,
                        state: .running))
                tasks[job.key] = Task { await self.run(job) }
            case .stop(let key):
                tasks[key]?.cancel()
            }
        }
    }

    private func run(_ job: JobQueue<ResourceKey, Request>.Job) async {
        let outcome: PreloadJob.State
        var failure: String?
        do {
            try await fetch(job)
            outcome = .finished
        } catch {
            outcome = Task.isCancelled ? .cancelled : .failed
            failure = "\(error)"
        }
        tasks[job.key] = nil
        end(job.key, outcome, error: outcome == .failed ? failure : nil)
        perform(queue.finished(job.key))
    }

    /// Plans the job, then fetches what of the plan is missing in steps, each after playback
    /// has been quiet.
    private func fetch(_ job: JobQueue<ResourceKey, Request>.Job) async throws {
        let plan = try await self.plan(job.request)
        let isBounded = plan.targets.allSatisfy { $0.ranges != nil }
        let targetBytes = plan.targets.compactMap(\.ranges?.coveredLength).reduce(0, +)
        let storedBytes = plan.targets.reduce(0) { $0 + fetcher.storedBytes($1) }
        update(job.key) { report in
            report.method = plan.method
            report.error = plan.containerError.map { "\($0); seconds estimated" }
            report.bytesTarget = isBounded ? targetBytes : nil
            report.bytesDone = storedBytes
        }
        for target in plan.targets {
            try await fetcher.fetch(target) { count in await self.update(job.key) { $0.bytesDone += count } }
        }
    }

    /// The first plan of the configured planners, else the plan for one resource.
    private func plan(_ request: Request) async throws -> PreloadPlan {
        for planner in configuration.planners {
            if let plan = try await planner.plan(
                request.amount, of: request.url, maximumBandwidth: request.maximumBandwidth,
                loader: loader)
            {
                return plan
            }
        }
        return try await PreloadPlan.make(
            for: request.amount, of: request.url, loader: loader,
            assumedBitrate: configuration.assumedBitrate)
    }

    private func end(_ key: ResourceKey, _ state: PreloadJob.State, error: String? = nil) {
        update(key) { report in
            report.state = state
            if let error { report.error = error }
        }
        reports.end(key)
    }

    private func update(_ key: ResourceKey, _ change: (inout PreloadJob) -> Void) {
        reports.update(key, change)
    }

    private func report(_ job: PreloadJob) {
        reports.record(job, for: job.key)
    }
}

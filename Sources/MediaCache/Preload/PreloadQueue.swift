import Foundation

/// The preloader's scheduling as a value-type state machine: which jobs wait, which run, in
/// what order they start. It returns what to start and stop; the ``Preloader`` does it.
///
/// Jobs are ranked by priority, then by recency (the newest request first). One resource is
/// one job: asking again merges the amounts, raises the priority and refreshes the recency;
/// asking again while it runs queues the merged request to run after it, which fetches only
/// what is still missing.
struct PreloadQueue {
    struct Job: Hashable, Sendable {
        var key: ResourceKey
        var url: URL
        var amount: PreloadAmount
        var priority: Int
        /// The bits per second to choose a variant by; the latest request's wins.
        var maximumBandwidth: Int?
        var sequence: Int
    }

    enum Action: Hashable, Sendable {
        case start(Job)
        case stop(ResourceKey)
    }

    /// How many jobs run at once.
    let limit: Int
    private(set) var waiting: [ResourceKey: Job] = [:]
    private(set) var running: [ResourceKey: Job] = [:]
    /// Requests for running jobs, to run once those finish.
    private(set) var followUps: [ResourceKey: Job] = [:]
    private var nextSequence = 0

    init(limit: Int) {
        precondition(limit > 0, "a preload queue runs at least one job")
        self.limit = limit
    }

    /// The waiting jobs, best ranked first.
    var ranked: [Job] {
        waiting.values.sorted { ($0.priority, $0.sequence) > ($1.priority, $1.sequence) }
    }

    mutating func add(key: ResourceKey, url: URL, amount: PreloadAmount, priority: Int, maximumBandwidth: Int? = nil) -> [Action] {
        nextSequence += 1
        var job = Job(key: key, url: url, amount: amount, priority: priority, maximumBandwidth: maximumBandwidth,
                      sequence: nextSequence)
        if let earlier = running[key] ?? followUps[key] {
            job.amount = earlier.amount.merged(with: amount)
            job.priority = max(earlier.priority, priority)
            followUps[key] = job
            return []
        }
        if let earlier = waiting[key] {
            job.amount = earlier.amount.merged(with: amount)
            job.priority = max(earlier.priority, priority)
        }
        waiting[key] = job
        return fill()
    }

    /// A running job ended, however it ended.
    mutating func finished(_ key: ResourceKey) -> [Action] {
        guard running.removeValue(forKey: key) != nil else { return [] }
        if let followUp = followUps.removeValue(forKey: key) { waiting[key] = followUp }
        return fill()
    }

    mutating func cancel(_ key: ResourceKey) -> [Action] {
        waiting[key] = nil
        followUps[key] = nil
        return running[key] == nil ? [] : [.stop(key)]
    }

    mutating func cancelAll() -> [Action] {
        waiting = [:]
        followUps = [:]
        return running.keys.sorted().map { .stop($0) }
    }

    private mutating func fill() -> [Action] {
        var actions: [Action] = []
        for job in ranked where running.count < limit {
            waiting[job.key] = nil
            running[job.key] = job
            actions.append(.start(job))
        }
        return actions
    }
}

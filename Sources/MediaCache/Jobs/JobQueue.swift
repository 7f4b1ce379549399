import Foundation

/// The scheduling of jobs (preloads, downloads) as a value-type state machine: which wait,
/// which run, in what order they start. It returns what to start and stop; its owner does it.
///
/// One key is one job. Adding a waiting key again merges the two requests (``merge``), keeps
/// the higher priority and refreshes the job's recency; adding a running key queues the
/// merged request to run after it, which then fetches only what is still missing.
package struct JobQueue<Key: Hashable & Comparable & Sendable, Request: Sendable> {
    package struct Job: Sendable {
        package var key: Key
        package var request: Request
        package var priority: Int
        /// When it was last asked for: higher is newer.
        package var sequence: Int
    }

    package enum Action: Sendable {
        case start(Job)
        case stop(Key)
    }

    /// Which waiting job starts first.
    package enum Order: Sendable {
        /// The highest priority, then the newest request (a feed's next items).
        case priorityThenNewest
        /// The oldest request (downloads, in the order they were asked for).
        case oldest
    }

    /// How many jobs run at once.
    package let limit: Int
    package let order: Order
    /// The request for a key asked for twice: the earlier and the later one made one.
    private let merge: @Sendable (Request, Request) -> Request
    package private(set) var waiting: [Key: Job] = [:]
    package private(set) var running: [Key: Job] = [:]
    /// Requests for running jobs, to run once those finish.
    package private(set) var followUps: [Key: Job] = [:]
    private var nextSequence = 0

    package init(limit: Int, order: Order, merge: @escaping @Sendable (Request, Request) -> Request) {
        precondition(limit > 0, "a job queue runs at least one job")
        self.limit = limit
        self.order = order
        self.merge = merge
    }

    /// The waiting jobs, the next to start first.
    package var ranked: [Job] {
        switch order {
        case .priorityThenNewest: waiting.values.sorted { ($0.priority, $0.sequence) > ($1.priority, $1.sequence) }
        case .oldest: waiting.values.sorted { $0.sequence < $1.sequence }
        }
    }

    package mutating func add(_ key: Key, _ request: Request, priority: Int = 0) -> [Action] {
        nextSequence += 1
        var job = Job(key: key, request: request, priority: priority, sequence: nextSequence)
        if let earlier = running[key] ?? followUps[key] {
            job.request = merge(earlier.request, request)
            job.priority = max(earlier.priority, priority)
            followUps[key] = job
            return []
        }
        if let earlier = waiting[key] {
            job.request = merge(earlier.request, request)
            job.priority = max(earlier.priority, priority)
            if order == .oldest { job.sequence = earlier.sequence }
        }
        waiting[key] = job
        return fill()
    }

    /// A running job ended, however it ended.
    package mutating func finished(_ key: Key) -> [Action] {
        guard running.removeValue(forKey: key) != nil else { return [] }
        if let followUp = followUps.removeValue(forKey: key) { waiting[key] = followUp }
        return fill()
    }

    package mutating func cancel(_ key: Key) -> [Action] {
        waiting[key] = nil
        followUps[key] = nil
        return running[key] == nil ? [] : [.stop(key)]
    }

    package mutating func cancelAll() -> [Action] {
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

extension JobQueue.Action: Equatable where Key: Equatable {
    package static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.stop(let left), .stop(let right)): left == right
        case (.start(let left), .start(let right)): left.key == right.key && left.sequence == right.sequence
        default: false
        }
    }
}

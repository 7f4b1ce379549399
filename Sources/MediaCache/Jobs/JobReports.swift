import Foundation

/// The reports of a job runner's jobs (``Preloader/jobs``, ``DownloadManager/downloads``) and
/// the streams their changes go to: every change is recorded, then published to each
/// subscriber. Ended jobs are kept as ``Retention`` says.
package struct JobReports<Key: Hashable & Sendable, Report: Sendable> {
    /// How long an ended job's report is kept.
    package enum Retention: Sendable {
        /// Until it is removed: a download, which the index keeps too.
        case untilRemoved
        /// Among the last `count` jobs that ended: preloads, which nobody removes.
        case lastEnded(Int)
    }

    package let retention: Retention
    private var reports: [Key: Report] = [:]
    /// Every key, in the order it was first reported.
    private var order: [Key] = []
    /// The keys of ended jobs, the oldest end first.
    private var ended: [Key] = []
    private var subscribers = Subscribers<Report>()

    package init(retention: Retention) {
        self.retention = retention
    }

    package subscript(key: Key) -> Report? {
        reports[key]
    }

    /// Every report, in the order its job was first reported.
    package var all: [Report] {
        order.compactMap { reports[$0] }
    }

    /// The reports of ended jobs, the latest to end first.
    package var endedLatestFirst: [Report] {
        ended.reversed().compactMap { reports[$0] }
    }

    /// Records `report` as its job's and publishes it; a job reported again after it ended is
    /// under way again.
    package mutating func record(_ report: Report, for key: Key) {
        if reports.updateValue(report, forKey: key) == nil { order.append(key) }
        ended.removeAll { $0 == key }
        subscribers.yield(report)
    }

    /// Applies `change` to the report of `key`, if there is one, then records and publishes it.
    @discardableResult
    package mutating func update(_ key: Key, _ change: (inout Report) -> Void) -> Report? {
        guard var report = reports[key] else { return nil }
        change(&report)
        record(report, for: key)
        return report
    }

    /// The job of `key` ended (its final report recorded): with ``Retention/lastEnded(_:)``,
    /// the reports of the oldest ended jobs beyond the count are dropped.
    package mutating func end(_ key: Key) {
        guard reports[key] != nil else { return }
        ended.removeAll { $0 == key }
        ended.append(key)
        guard case .lastEnded(let count) = retention else { return }
        while ended.count > count { remove(ended[0]) }
    }

    /// Forgets the job of `key`.
    package mutating func remove(_ key: Key) {
        reports[key] = nil
        order.removeAll { $0 == key }
        ended.removeAll { $0 == key }
    }

    /// A new subscriber's stream of every change from now on (see ``Subscribers``).
    package mutating func subscribe(ended: @escaping @Sendable (UUID) -> Void) -> AsyncStream<Report> {
        subscribers.subscribe(ended: ended)
    }

    package mutating func unsubscribe(_ id: UUID) {
        subscribers.remove(id)
    }
}

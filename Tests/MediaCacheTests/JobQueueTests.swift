import Foundation
@testable import MediaCache
import Testing

/// The job runner's scheduling, without I/O: ranking, the concurrency limit, merging repeated
/// requests and cancelling, for preloads (priority, then newest) and downloads (oldest first).
@Suite(.timeLimit(.minutes(2))) struct JobQueueTests {
    typealias PreloadQueue = JobQueue<ResourceKey, PreloadAmount>

    func preloads(limit: Int) -> PreloadQueue {
        PreloadQueue(limit: limit, order: .priorityThenNewest) { $0.merged(with: $1) }
    }

    func add(
        _ queue: inout PreloadQueue, _ name: String, _ amount: PreloadAmount = .bytes(100), priority: Int = 0
    )
        -> [PreloadQueue.Action]
    {
        queue.add(ResourceKey(name), amount, priority: priority)
    }

    func started(_ actions: [PreloadQueue.Action]) -> [String] {
        actions.compactMap { if case .start(let job) = $0 { job.key.rawValue } else { nil } }
    }

    @Test func downloadsRunOldestFirstAndARepeatedRequestKeepsItsPlace() {
        var queue = JobQueue<String, Void>(limit: 1, order: .oldest) { _, _ in }
        #expect(queue.add("a", ()).count == 1)
        _ = queue.add("b", ())
        _ = queue.add("c", ())
        _ = queue.add("b", ())
        #expect(queue.ranked.map(\.key) == ["b", "c"], "asked again, b keeps its place")
        let next = queue.finished("a")
        #expect(next == [.start(queue.running["b"]!)])
    }

    @Test func runsAtMostTheLimitThenByPriorityThenNewestFirst() {
        var queue = preloads(limit: 2)
        #expect(started(add(&queue, "a")) == ["a"])
        #expect(started(add(&queue, "b")) == ["b"])
        #expect(started(add(&queue, "c")).isEmpty)
        #expect(started(add(&queue, "d")).isEmpty)
        #expect(started(add(&queue, "low", priority: -1)).isEmpty)
        #expect(started(add(&queue, "high", priority: 5)).isEmpty)
        #expect(queue.ranked.map(\.key.rawValue) == ["high", "d", "c", "low"])
        #expect(started(queue.finished(ResourceKey("a"))) == ["high"])
        #expect(started(queue.finished(ResourceKey("b"))) == ["d"])
        #expect(queue.running.count == 2)
    }

    @Test func aRepeatedRequestIsOneJobWithTheLargerAmountAndPriority() {
        var queue = preloads(limit: 1)
        _ = add(&queue, "playing")
        _ = add(&queue, "next", .seconds(2))
        _ = add(&queue, "other", priority: 1)
        _ = add(&queue, "next", .seconds(5), priority: 3)
        #expect(queue.waiting.count == 2)
        #expect(queue.ranked.first?.request == .seconds(5))
        #expect(queue.ranked.first?.priority == 3)
        _ = add(&queue, "next", .seconds(1))
        #expect(queue.ranked.first?.request == .seconds(5), "a smaller amount does not shrink the job")
    }

    @Test func aRequestForARunningJobRunsAfterItWithTheMergedAmount() {
        var queue = preloads(limit: 1)
        _ = add(&queue, "a", .bytes(100))
        #expect(add(&queue, "a", .bytes(500)).isEmpty)
        #expect(queue.running.count == 1 && queue.waiting.isEmpty)
        let next = queue.finished(ResourceKey("a"))
        #expect(next.count == 1)
        if case .start(let job) = next.first { #expect(job.request == .bytes(500)) }
    }

    @Test func cancellingStopsRunningJobsAndDropsQueuedOnes() {
        var queue = preloads(limit: 1)
        _ = add(&queue, "a")
        _ = add(&queue, "b")
        _ = add(&queue, "c")
        #expect(queue.cancel(ResourceKey("b")).isEmpty)
        #expect(queue.cancel(ResourceKey("a")) == [.stop(ResourceKey("a"))])
        #expect(queue.running.count == 1, "a stopped job holds its slot until it has ended")
        #expect(started(queue.finished(ResourceKey("a"))) == ["c"])
        #expect(queue.cancelAll() == [.stop(ResourceKey("c"))])
        #expect(queue.finished(ResourceKey("c")).isEmpty)
        #expect(queue.waiting.isEmpty && queue.running.isEmpty)
    }

    @Test func amountsMergeAndDecodeFromJSON() throws {
        #expect(PreloadAmount.bytes(5).merged(with: .bytes(3)) == .bytes(5))
        #expect(PreloadAmount.seconds(5).merged(with: .bytes(3)) == .bytes(3))
        #expect(PreloadAmount.bytes(5).merged(with: .full) == .full)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(PreloadAmount.self, from: Data(#"{"seconds":4.5}"#.utf8)) == .seconds(4.5))
        #expect(try decoder.decode(PreloadAmount.self, from: Data(#"{"bytes":1024}"#.utf8)) == .bytes(1024))
        #expect(try decoder.decode(PreloadAmount.self, from: Data(#"{"full":true}"#.utf8)) == .full)
        #expect(throws: DecodingError.self) { try decoder.decode(PreloadAmount.self, from: Data("{}".utf8)) }
        #expect(!PreloadAmount.seconds(.nan).isValid && !PreloadAmount.bytes(0).isValid)
    }
}

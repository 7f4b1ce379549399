import Foundation
import MediaCache
import MediaCacheTesting

/// What a commit costs in a store that holds many resources, as a cache of HLS segments does:
/// within the default size limit, which each commit checks, and exactly full, so that each
/// commit evicts, against the same store with no limits. A commit runs about once a second
/// while anything is read.
struct EvictionCheckBenchmark {
    let counts = [1_000, 100_000]
    let commits = 21

    func run() throws {
        Measure.header(
            "A commit in a store of many resources (one 4 KiB write, then `commit()`; median of \(commits))",
            ours: "with a size limit", reference: "no limits",
            ratioMeaning: "limited / unlimited, lower is better")
        for count in counts {
            let directory = try TemporaryDirectory(prefix: "mediacache-bench")
            defer { directory.remove() }
            let path = directory.appending("store")
            let populating = ContinuousClock.now
            try populate(path, count: count)
            print("(\(count) resources stored in \(ContinuousClock.now - populating))")
            let within = try medianCommit(path, count: count, eviction: .default, phase: 1)
            let unlimited = try medianCommit(path, count: count, eviction: .unlimited, phase: 2)
            // Exactly full: each commit's 4 KiB puts the store over its limit, and the oldest
            // resources go.
            let usage = Int64(count) << 10 + 2 * Int64(commits) * 4096
            let full = try medianCommit(path, count: count, eviction: EvictionPolicy([.totalBytes(usage)]), phase: 3)
            Measure.row(
                "\(count) resources, within the limit: time per commit", ours: Self.milliseconds(within),
                reference: Self.milliseconds(unlimited), ratio: within.timeInterval / unlimited.timeInterval)
            Measure.row(
                "\(count) resources, full (each commit evicts): time per commit", ours: Self.milliseconds(full),
                reference: Self.milliseconds(unlimited), ratio: full.timeInterval / unlimited.timeInterval)
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.2f ms", duration.timeInterval * 1000)
    }

    private func url(_ index: Int) -> URL {
        URL(string: "https://bench.test/segments/\(index).ts")!
    }

    private func populate(_ path: String, count: Int) throws {
        let store = try open(path, eviction: .unlimited)
        let chunk = TestPattern.data(offset: 0, length: 1024, seed: 2)
        for index in 0..<count {
            let generation = try store.setContentInfo(ContentInfo(totalLength: 1 << 20), for: url(index))
            try store.write(chunk, at: 0, to: store.key(for: url(index)), generation: generation)
            if index % 1000 == 999 { try store.commit() }
        }
        try store.close()
    }

    /// Each phase writes 4 KiB at a place of its own, so that every commit records new bytes.
    private func medianCommit(_ path: String, count: Int, eviction: EvictionPolicy, phase: Int64) throws -> Duration {
        let store = try open(path, eviction: eviction)
        defer { try? store.close() }
        let chunk = TestPattern.data(offset: 0, length: 4096, seed: 3)
        var samples: [Duration] = []
        for round in 0..<commits {
            let target = url(round * 7919 % count)
            let key = store.key(for: target)
            guard let record = try store.record(for: key) else { continue }
            try store.write(chunk, at: 4096 * phase, to: key, generation: record.generation)
            let start = ContinuousClock.now
            try store.commit()
            samples.append(ContinuousClock.now - start)
        }
        return Measure.median(of: samples)
    }

    private func open(_ path: String, eviction: EvictionPolicy) throws -> MediaStore {
        var configuration = MediaStore.Configuration()
        configuration.eviction = eviction
        return try MediaStore.open(at: path, configuration: configuration)
    }
}

import Foundation
import GRDB
import MediaCacheTesting
import Testing
@testable import MediaCache

/// The index's totals (``StoreIndex/usage()``), which the eviction check reads instead of every
/// resource, follow every change of the rows they count, and a cache from before them starts
/// with its true totals.
@Suite(.timeLimit(.minutes(2))) struct StoreIndexUsageTests {
    /// What the rows themselves add up to.
    func recounted(_ index: StoreIndex) throws -> (bytes: Int64, entries: Int) {
        try index.pool.read { db in
            (
                try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(\"end\" - start), 0) FROM span") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM resource") ?? -1
            )
        }
    }

    @Test func theTotalsFollowEveryChangeOfTheRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try StoreIndex(path: directory.appending("index.sqlite"))
        defer { try? index.close() }
        var random = SplitMix64(seed: 17)
        func span(below limit: Int64) -> ByteRange {
            let start = Int64.random(in: 0..<(limit - 1), using: &random)
            return ByteRange(start, Int64.random(in: (start + 1)...limit, using: &random))
        }
        var ids: [Int64] = []
        var generations: [Int64: Generation] = [:]
        var changes: [String: Int] = [:]
        for step in 0..<400 {
            let id = ids.randomElement(using: &random)
            let change = ids.isEmpty ? 0 : Int.random(in: 0..<8, using: &random)
            switch (change, id) {
            case (0, _), (_, nil):
                let resource = try index.insertResource(
                    key: ResourceKey("r\(step)"), url: "https://origin.test/\(step)",
                    info: ContentInfo(totalLength: 1 << 20), now: Date())
                ids.append(resource.id)
                generations[resource.id] = resource.generation
            case (1...3, let id?):
                var commit = StoreIndex.Commit()
                commit.spans = [.init(id: id, generation: generations[id]!, merged: [span(below: 1 << 20), span(below: 1 << 20)])]
                _ = try index.record(commit)
            case (4, let id?):
                try index.replaceSpans(of: id, with: ByteRangeSet([span(below: 1 << 19), span(below: 1 << 20)]))
            case (5, let id?):
                try index.truncateSpans(of: id, to: Int64.random(in: 1..<(1 << 20), using: &random))
            case (6, let id?):
                let next = Generation(generations[id]!.value + 1)
                try index.startGeneration(next, id: id, info: ContentInfo(totalLength: 1 << 20), validatedAt: nil)
                generations[id] = next
            case (_, let id?):
                // Deleting a resource deletes its spans by the foreign key's cascade.
                try index.deleteResource(id: id)
                ids.removeAll { $0 == id }
            }
            changes["\(min(change, 7))", default: 0] += 1
            let usage = try index.usage()
            let rows = try recounted(index)
            #expect(usage.bytes == rows.bytes && usage.entries == rows.entries, "after step \(step) (change \(change))")
            if usage.bytes != rows.bytes || usage.entries != rows.entries { return }
        }
        #expect(changes.count == 8, "every kind of change ran: \(changes)")
        #expect(try recounted(index).bytes > 0)
    }

    @Test func theOldestAccessComesFromTheIndexOfAccessTimes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let index = try StoreIndex(path: directory.appending("index.sqlite"))
        defer { try? index.close() }
        #expect(try index.usage() == EvictionPlanner.Usage(bytes: 0, entries: 0, oldestAccess: nil))
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try index.insertResource(key: ResourceKey("new"), url: "https://origin.test/new", info: ContentInfo(), now: old + 60)
        _ = try index.insertResource(key: ResourceKey("old"), url: "https://origin.test/old", info: ContentInfo(), now: old)
        #expect(try index.usage().oldestAccess == old)
    }

    /// A cache written before the totals existed (schema v4) starts with the totals of its rows.
    @Test func aCacheFromBeforeTheTotalsGetsThemWhenItOpens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("index.sqlite")
        let queue = try DatabaseQueue(path: path)
        try StoreIndex.migrator.migrate(queue, upTo: "v4")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO resource (id, key, url, accepts_ranges, generation, pinned, last_access)
                    VALUES (1, 'a', 'https://origin.test/a', 1, 1, 0, 1700000000), (2, 'b', 'https://origin.test/b', 1, 1, 1, 1700000100);
                    INSERT INTO span VALUES (1, 0, 1000), (1, 2000, 2500), (2, 0, 300);
                    """)
        }
        try queue.close()

        let index = try StoreIndex(path: path)
        defer { try? index.close() }
        #expect(
            try index.usage()
                == EvictionPlanner.Usage(
                    bytes: 1800, entries: 2,
                    oldestAccess: Date(timeIntervalSince1970: 1_700_000_000)))
        let candidates = try index.withEvictionCandidates { next in
            var all: [EvictionPlanner.Candidate] = []
            while let candidate = try next() { all.append(candidate) }
            return all
        }
        #expect(candidates.map(\.key) == [ResourceKey("a")], "the pinned resource is no candidate")
        #expect(candidates.map(\.bytes) == [1500])
    }
}

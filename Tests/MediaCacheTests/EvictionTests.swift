import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCache

@Suite(.timeLimit(.minutes(2))) struct EvictionPlannerTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func candidate(_ name: String, bytes: Int64, age: TimeInterval, protected: Bool = false) -> EvictionPlanner.Candidate {
        .init(key: ResourceKey(name), bytes: bytes, lastAccess: now.addingTimeInterval(-age), isProtected: protected)
    }

    /// The planner's choice among `candidates`, given to it least recently used first; also
    /// how many it read.
    func victims(
        _ planner: EvictionPlanner, among candidates: [EvictionPlanner.Candidate],
        usage: EvictionPlanner.Usage
    ) -> (keys: [ResourceKey], read: Int) {
        var queue = candidates.sorted { ($0.lastAccess, $0.key) < ($1.lastAccess, $1.key) }[...]
        var read = 0
        let keys = planner.victims(usage: usage, now: now) {
            guard let next = queue.popFirst() else { return nil }
            read += 1
            return next
        }
        return (keys, read)
    }

    func usage(of candidates: [EvictionPlanner.Candidate], pinnedBytes: Int64 = 0, pinned: Int = 0) -> EvictionPlanner.Usage {
        EvictionPlanner.Usage(
            bytes: candidates.reduce(pinnedBytes) { $0 + $1.bytes }, entries: candidates.count + pinned,
            oldestAccess: candidates.map(\.lastAccess).min())
    }

    @Test func byteLimitEvictsLeastRecentlyUsedFirst() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.totalBytes(250)]))
        let candidates = [
            candidate("new", bytes: 100, age: 1),
            candidate("old", bytes: 100, age: 30),
            candidate("middle", bytes: 100, age: 10),
        ]
        #expect(planner.isExceeded(by: usage(of: candidates), now: now))
        let chosen = victims(planner, among: candidates, usage: usage(of: candidates))
        #expect(chosen.keys == [ResourceKey("old")])
        #expect(chosen.read == 2, "it stops at the first candidate that may stay")
    }

    @Test func pinnedAndProtectedEntriesCountButAreNeverChosen() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.totalBytes(100)]))
        // A pinned resource of 150 bytes is no candidate, but its bytes are in the store's usage.
        let candidates = [
            candidate("leased", bytes: 20, age: 200, protected: true),
            candidate("a", bytes: 10, age: 5),
            candidate("b", bytes: 10, age: 1),
        ]
        let chosen = victims(planner, among: candidates, usage: usage(of: candidates, pinnedBytes: 150, pinned: 1))
        #expect(chosen.keys == [ResourceKey("a"), ResourceKey("b")])
    }

    @Test func ageAndEntryLimits() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.age(.seconds(60)), .entryCount(1)]))
        let candidates = [
            candidate("stale", bytes: 1, age: 61),
            candidate("recent", bytes: 1, age: 2),
            candidate("newest", bytes: 1, age: 1),
        ]
        let chosen = victims(planner, among: candidates, usage: usage(of: candidates))
        #expect(chosen.keys == [ResourceKey("stale"), ResourceKey("recent")])
    }

    @Test func aStoreWithinEveryLimitIsNotExceeded() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.totalBytes(300), .age(.seconds(60)), .entryCount(3)]))
        let within = [candidate("a", bytes: 100, age: 59), candidate("b", bytes: 200, age: 1)]
        #expect(!planner.isExceeded(by: usage(of: within), now: now))
        #expect(planner.isExceeded(by: usage(of: within, pinnedBytes: 1, pinned: 1), now: now), "one byte over")
        #expect(planner.isExceeded(by: usage(of: within, pinned: 2), now: now), "one entry over")
        #expect(planner.isExceeded(by: usage(of: within + [candidate("c", bytes: 0, age: 61)]), now: now), "one too old")
        #expect(!planner.isExceeded(by: EvictionPlanner.Usage(bytes: 0, entries: 0, oldestAccess: nil), now: now))
    }
}

@Suite(.timeLimit(.minutes(2))) struct StoreEvictionTests {
    @Test func evictsLeastRecentlyReadAfterACommitButNeverPinnedOrLeased() throws {
        let clock = ManualClock()
        let fixture = try StoreFixture {
            $0.clock = clock
            $0.commitInterval = .seconds(86_400)
            $0.eviction = EvictionPolicy([.totalBytes(300)])
        }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        var keys: [String: ResourceKey] = [:]
        for name in ["pinned", "leased", "old", "read"] {
            keys[name] = try StoreFixture.fill(store, name, length: 100, ranges: [ByteRange(0, 100)]).0
            clock.advance(by: .seconds(10))
        }
        try store.setPinned(true, for: keys["pinned"]!)
        let lease = store.beginUse(of: keys["leased"]!)
        _ = try store.read(ByteRange(0, 1), from: keys["read"]!)
        clock.advance(by: .seconds(10))
        try StoreFixture.fill(store, "newest", length: 100, ranges: [ByteRange(0, 100)])

        try store.commit()
        let remaining = Set(try store.entries().map(\.key.rawValue))
        #expect(remaining == ["pinned", "leased", "newest"].map { StoreFixture.url($0).absoluteString }.asSet)

        lease.end()
        try store.commit()
        #expect(try store.entries().count == 3)
        try StoreFixture.fill(store, "latest", length: 100, ranges: [ByteRange(0, 100)])
        try store.commit()
        let final = Set(try store.entries().map(\.key.rawValue))
        #expect(final == ["pinned", "newest", "latest"].map { StoreFixture.url($0).absoluteString }.asSet)
        try store.close()
    }

    @Test func evictsOnOpenUnderANewLimit() throws {
        var fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        var store = try fixture.open()
        for name in ["a", "b", "c"] { try StoreFixture.fill(store, name, length: 100, ranges: [ByteRange(0, 100)]) }
        try store.close()
        fixture.configuration.eviction = EvictionPolicy([.entryCount(1)])
        store = try fixture.open()
        #expect(try store.entries().count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path + "/data").count == 1)
        try store.close()
    }
}

extension Array where Element: Hashable {
    var asSet: Set<Element> { Set(self) }
}

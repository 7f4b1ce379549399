import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCache

@Suite struct EvictionPlannerTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func candidate(_ name: String, bytes: Int64, age: TimeInterval, protected: Bool = false) -> EvictionPlanner.Candidate {
        .init(key: ResourceKey(name), bytes: bytes, lastAccess: now.addingTimeInterval(-age), isProtected: protected)
    }

    @Test func byteLimitEvictsLeastRecentlyUsedFirst() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.totalBytes(250)]))
        let victims = planner.victims(among: [
            candidate("new", bytes: 100, age: 1),
            candidate("old", bytes: 100, age: 30),
            candidate("middle", bytes: 100, age: 10),
        ], now: now)
        #expect(victims == [ResourceKey("old")])
    }

    @Test func protectedEntriesCountButAreNeverChosen() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.totalBytes(100)]))
        let victims = planner.victims(among: [
            candidate("pinned", bytes: 150, age: 100, protected: true),
            candidate("a", bytes: 10, age: 5),
            candidate("b", bytes: 10, age: 1),
        ], now: now)
        #expect(victims == [ResourceKey("a"), ResourceKey("b")])
    }

    @Test func ageAndEntryLimits() {
        let planner = EvictionPlanner(policy: EvictionPolicy([.age(.seconds(60)), .entryCount(1)]))
        let victims = planner.victims(among: [
            candidate("stale", bytes: 1, age: 61),
            candidate("recent", bytes: 1, age: 2),
            candidate("newest", bytes: 1, age: 1),
        ], now: now)
        #expect(victims == [ResourceKey("stale"), ResourceKey("recent")])
    }
}

@Suite struct StoreEvictionTests {
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

import Foundation
import Testing
@testable import MediaCache

@Suite(.timeLimit(.minutes(2))) struct RecentWritesTests {
    let first = Generation(1)

    func bytes(_ count: Int, from value: UInt8) -> Data {
        Data((0..<count).map { value &+ UInt8(truncatingIfNeeded: $0) })
    }

    @Test func aReadInsideAWriteGetsTheRestOfThatWriteUpToItsLimit() throws {
        var recent = RecentWrites(capacity: 100)
        recent.append(bytes(10, from: 0), at: 50, generation: first)
        recent.append(bytes(10, from: 10), at: 60, generation: first)

        let whole = try #require(recent.bytes(at: 50, generation: nil, limit: 100))
        #expect(whole.bytes == bytes(10, from: 0) && whole.generation == first)
        #expect(recent.bytes(at: 63, generation: first, limit: 100)?.bytes == bytes(7, from: 13))
        #expect(recent.bytes(at: 63, generation: first, limit: 2)?.bytes == bytes(2, from: 13))
        #expect(recent.bytes(at: 63, generation: first, limit: 0) == nil)
        #expect(recent.bytes(at: 70, generation: nil, limit: 100) == nil)
        #expect(recent.bytes(at: 49, generation: nil, limit: 100) == nil)
    }

    @Test func bytesOfAnotherGenerationAreNotGiven() {
        var recent = RecentWrites(capacity: 100)
        recent.append(bytes(10, from: 0), at: 0, generation: first)
        #expect(recent.bytes(at: 0, generation: Generation(2), limit: 10) == nil)
    }

    @Test func theOldestWritesGoBeyondTheCapacity() {
        var recent = RecentWrites(capacity: 25)
        recent.append(bytes(10, from: 0), at: 0, generation: first)
        recent.append(bytes(10, from: 10), at: 10, generation: first)
        recent.append(bytes(10, from: 20), at: 20, generation: first)
        #expect(recent.bytes(at: 5, generation: nil, limit: 10) == nil)
        #expect(recent.bytes(at: 15, generation: nil, limit: 10)?.bytes == bytes(5, from: 15))
        recent.append(bytes(30, from: 0), at: 30, generation: first)
        #expect(recent.bytes(at: 30, generation: nil, limit: 30) == nil, "a write larger than the capacity is not kept")
        recent.removeAll()
        #expect(recent.bytes(at: 25, generation: nil, limit: 10) == nil)
    }
}

import Foundation
import Testing
@testable import MediaCache

@Suite(.timeLimit(.minutes(2))) struct ByteRangeSetTests {
    @Test func insertMergesOverlappingAndAdjacentRanges() {
        var set: ByteRangeSet = [ByteRange(0, 10), ByteRange(20, 30)]
        set.insert(ByteRange(10, 20))
        #expect(set.ranges == [ByteRange(0, 30)])
        set.insert(ByteRange(40, 50))
        set.insert(ByteRange(45, 60))
        #expect(set.ranges == [ByteRange(0, 30), ByteRange(40, 60)])
    }

    @Test func removeSplitsRanges() {
        var set: ByteRangeSet = [ByteRange(0, 100)]
        set.remove(ByteRange(10, 20))
        #expect(set.ranges == [ByteRange(0, 10), ByteRange(20, 100)])
        #expect(set.coveredLength == 90)
    }

    @Test func gapsAndPrefixes() {
        let set: ByteRangeSet = [ByteRange(0, 100), ByteRange(200, 300)]
        #expect(set.gaps(in: ByteRange(50, 400)) == [ByteRange(100, 200), ByteRange(300, 400)])
        #expect(set.contiguousLength(from: 50) == 50)
        #expect(set.contiguousLength(from: 150) == 0)
        #expect(set.coveredLength(in: ByteRange(50, 250)) == 100)
        #expect(set.bounds == ByteRange(0, 300))
    }

    @Test func staysBalancedWithManyRangesInsertedInOrder() {
        var set = ByteRangeSet()
        for index in 0..<100_000 as Range<Int64> {
            set.insert(ByteRange(index * 4, index * 4 + 2))
        }
        #expect(set.rangeCount == 100_000)
        #expect(set.root!.height <= 25)
        #expect(set.coveredLength == 200_000)
        set.insert(ByteRange(0, 400_000))
        #expect(set.ranges == [ByteRange(0, 400_000)])
    }

    @Test func copiesAreIndependentValues() {
        var original: ByteRangeSet = [ByteRange(0, 10)]
        let copy = original
        original.insert(ByteRange(10, 20))
        #expect(copy.ranges == [ByteRange(0, 10)])
        #expect(original.ranges == [ByteRange(0, 20)])
    }

    @Test func rangesRoundTripThroughJSONAndInvalidOnesAreRefused() throws {
        let data = try JSONEncoder().encode([ByteRange(5, 10)])
        #expect(try JSONDecoder().decode([ByteRange].self, from: data) == [ByteRange(5, 10)])
        for text in [#"{"lowerBound":10,"upperBound":5}"#, #"{"lowerBound":-1,"upperBound":5}"#] {
            #expect(throws: DecodingError.self, "\(text)") {
                try JSONDecoder().decode(ByteRange.self, from: Data(text.utf8))
            }
        }
    }
}

import PropertyBased
import Testing
@testable import MediaCache

/// Checks ``ByteRangeSet`` against the obvious model: one flag per byte.
@Suite(.timeLimit(.minutes(2))) struct ByteRangeSetPropertyTests {
    enum Step: Sendable, CustomStringConvertible {
        case insert(ByteRange)
        case remove(ByteRange)

        var description: String {
            switch self {
            case .insert(let range): "insert \(range)"
            case .remove(let range): "remove \(range)"
            }
        }
    }

    static let domain: Int64 = 160

    static var range: Generator<ByteRange, some Sequence & SendableMetatype> {
        zip(Gen.int(in: 0...Int(domain)), Gen.int(in: 0...Int(domain))).map { first, second in
            ByteRange(Int64(min(first, second)), Int64(max(first, second)))
        }
    }

    static var step: Generator<Step, some Sequence & SendableMetatype> {
        zip(Gen.bool, range).map { isInsert, range in isInsert ? Step.insert(range) : Step.remove(range) }
    }

    struct Bitmap {
        var bits = [Bool](repeating: false, count: Int(ByteRangeSetPropertyTests.domain))

        mutating func apply(_ step: Step) {
            switch step {
            case .insert(let range): for offset in range.lowerBound..<range.upperBound { bits[Int(offset)] = true }
            case .remove(let range): for offset in range.lowerBound..<range.upperBound { bits[Int(offset)] = false }
            }
        }

        /// The maximal runs of set bits.
        var runs: [ByteRange] {
            var result: [ByteRange] = []
            var start: Int?
            for (index, bit) in (bits + [false]).enumerated() {
                if bit, start == nil { start = index }
                if !bit, let first = start {
                    result.append(ByteRange(Int64(first), Int64(index)))
                    start = nil
                }
            }
            return result
        }

        func covered(_ range: ByteRange) -> Int64 {
            Int64((range.lowerBound..<range.upperBound).filter { bits[Int($0)] }.count)
        }
    }

    @Test func updatesMatchTheBitmapModel() async {
        let offsets = Gen.int(in: 0...Int(Self.domain))
        await propertyCheck(count: 1000, input: Self.step.array(of: 1...40), Self.range, offsets) { steps, probe, offset in
            var set = ByteRangeSet()
            var model = Bitmap()
            for step in steps {
                switch step {
                case .insert(let range): set.insert(range)
                case .remove(let range): set.remove(range)
                }
                model.apply(step)
            }
            let offset = Int64(offset)
            #expect(set.ranges == model.runs)
            #expect(set.rangeCount == model.runs.count)
            #expect(set.coveredLength == model.bits.filter { $0 }.count.asInt64)
            #expect(set.coveredLength(in: probe) == model.covered(probe))
            #expect(set.gaps(in: probe) == Self.gaps(in: probe, model: model))
            #expect(set.contains(probe) == (model.covered(probe) == probe.length))
            let inDomain = offset < Self.domain && model.bits[Int(offset)]
            #expect(set.contains(offset) == inDomain)
            let run = model.runs.first { $0.contains(offset) }
            #expect(set.contiguousLength(from: offset) == (run.map { $0.upperBound - offset } ?? 0))
            #expect(Self.isBalanced(set.root))
        }
    }

    @Test func unionMatchesInsertingEveryRange() async {
        await propertyCheck(input: Self.range.array(of: 0...20), Self.range.array(of: 0...20)) { first, second in
            var union = ByteRangeSet(first)
            union.formUnion(ByteRangeSet(second))
            #expect(union == ByteRangeSet(first + second))
        }
    }

    static func gaps(in range: ByteRange, model: Bitmap) -> [ByteRange] {
        var inverse = Bitmap()
        for offset in range.lowerBound..<range.upperBound where !model.bits[Int(offset)] {
            inverse.bits[Int(offset)] = true
        }
        return inverse.runs
    }

    /// The AVL invariant: sibling heights differ by at most one, and heights are exact.
    static func isBalanced(_ node: ByteRangeSet.Node?) -> Bool {
        guard let node else { return true }
        let left = node.left?.height ?? 0
        let right = node.right?.height ?? 0
        return abs(left - right) <= 1 && node.height == max(left, right) + 1
            && isBalanced(node.left) && isBalanced(node.right)
    }
}

extension Int {
    var asInt64: Int64 { Int64(self) }
}

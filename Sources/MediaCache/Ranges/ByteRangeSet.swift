/// A set of byte offsets stored as sorted, disjoint, non-adjacent ranges.
///
/// Inserting merges overlapping and adjacent ranges; removing splits them. The set is a
/// persistent balanced tree, so every update and point query costs O(log n) in the number
/// of stored ranges, copies are O(1), and the type is a plain `Sendable` value.
///
/// ```swift
/// var cached = ByteRangeSet()
/// cached.insert(ByteRange(0, 100))
/// cached.insert(ByteRange(100, 200))                // merges into 0..<200
/// cached.gaps(in: ByteRange(0, 500))                // [200..<500]
/// cached.contiguousLength(from: 50)                 // 150
/// ```
///
/// Named `ByteRangeSet` rather than `RangeSet` so it never shadows the standard library type.
public struct ByteRangeSet: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    var root: Node?

    /// Creates an empty set.
    public init() {}

    /// Creates a set holding the union of `ranges`.
    public init(_ ranges: some Sequence<ByteRange>) {
        for range in ranges { insert(range) }
    }

    public init(arrayLiteral ranges: ByteRange...) {
        self.init(ranges)
    }

    /// The number of disjoint ranges stored.
    public var rangeCount: Int { root?.count ?? 0 }

    /// Whether the set holds no bytes.
    public var isEmpty: Bool { root == nil }

    /// The total number of bytes covered, in O(1).
    public var coveredLength: Int64 { root?.covered ?? 0 }

    /// The stored ranges in ascending order.
    public var ranges: [ByteRange] {
        var result: [ByteRange] = []
        result.reserveCapacity(rangeCount)
        Node.forEach(root) { result.append($0) }
        return result
    }

    /// The lowest and highest covered offsets as one range, or `nil` when empty.
    public var bounds: ByteRange? {
        guard let first = Node.first(root), let last = Node.last(root) else { return nil }
        return ByteRange(first.lowerBound, last.upperBound)
    }

    /// Adds every byte of `range`, merging with overlapping and adjacent ranges.
    public mutating func insert(_ range: ByteRange) {
        guard !range.isEmpty else { return }
        let widened = ByteRange(max(range.lowerBound - 1, 0), range.upperBound + 1)
        let touching = Node.spans(in: root, overlapping: widened, limit: 2)
        switch touching.count {
        case 0:
            root = Node.inserting(range, into: root)
        case 1:
            let span = touching[0]
            guard !span.contains(range) else { return }
            let merged = ByteRange(min(span.lowerBound, range.lowerBound), max(span.upperBound, range.upperBound))
            root = Node.replacing(span, with: merged, in: root!)
        default:
            let (left, rest) = Node.split(root) { $0.upperBound >= range.lowerBound }
            let (touching, right) = Node.split(rest) { $0.lowerBound > range.upperBound }
            let lower = min(range.lowerBound, Node.first(touching)?.lowerBound ?? range.lowerBound)
            let upper = max(range.upperBound, Node.last(touching)?.upperBound ?? range.upperBound)
            root = Node.join(left, ByteRange(lower, upper), right)
        }
    }

    /// Adds every range of `other`.
    public mutating func formUnion(_ other: ByteRangeSet) {
        Node.forEach(other.root) { insert($0) }
    }

    /// Removes every byte of `range`, splitting ranges that straddle its ends.
    public mutating func remove(_ range: ByteRange) {
        guard !range.isEmpty, let tree = root else { return }
        let overlapping = Node.spans(in: tree, overlapping: range, limit: 2)
        if overlapping.count == 1, let remainder = Self.remainder(of: overlapping[0], removing: range) {
            let span = overlapping[0]
            root = Node.replacing(span, with: remainder.first, in: tree)
            if let second = remainder.second { root = Node.inserting(second, into: root) }
            return
        }
        guard !overlapping.isEmpty else { return }
        let (left, rest) = Node.split(root) { $0.upperBound > range.lowerBound }
        let (cut, right) = Node.split(rest) { $0.lowerBound >= range.upperBound }
        var result = left
        if let first = Node.first(cut), first.lowerBound < range.lowerBound {
            result = Node.join(result, ByteRange(first.lowerBound, range.lowerBound), nil)
        }
        if let last = Node.last(cut), last.upperBound > range.upperBound {
            root = Node.join(result, ByteRange(range.upperBound, last.upperBound), right)
        } else {
            root = Node.concatenate(result, right)
        }
    }

    /// What is left of `span` without `range`: one or two pieces, or `nil` when nothing is.
    private static func remainder(of span: ByteRange, removing range: ByteRange) -> (first: ByteRange, second: ByteRange?)? {
        let before = span.lowerBound < range.lowerBound ? ByteRange(span.lowerBound, range.lowerBound) : nil
        let after = span.upperBound > range.upperBound ? ByteRange(range.upperBound, span.upperBound) : nil
        guard let first = before ?? after else { return nil }
        return (first, before == nil ? nil : after)
    }

    /// Whether `offset` is covered.
    public func contains(_ offset: Int64) -> Bool {
        range(containing: offset) != nil
    }

    /// Whether every byte of `range` is covered.
    public func contains(_ range: ByteRange) -> Bool {
        guard !range.isEmpty else { return true }
        return self.range(containing: range.lowerBound)?.contains(range) ?? false
    }

    /// The stored range that contains `offset`, if any.
    public func range(containing offset: Int64) -> ByteRange? {
        var node = root
        while let current = node {
            if offset < current.span.lowerBound {
                node = current.left
            } else if offset >= current.span.upperBound {
                node = current.right
            } else {
                return current.span
            }
        }
        return nil
    }

    /// The first stored range that starts after `offset`, in O(log n).
    public func firstRange(after offset: Int64) -> ByteRange? {
        var node = root
        var best: ByteRange?
        while let current = node {
            if current.span.lowerBound > offset {
                best = current.span
                node = current.left
            } else {
                node = current.right
            }
        }
        return best
    }

    /// The number of covered bytes that start at `offset` without a gap.
    public func contiguousLength(from offset: Int64) -> Int64 {
        guard let span = range(containing: offset) else { return 0 }
        return span.upperBound - offset
    }

    /// The number of covered bytes inside `range`, in O(log n).
    public func coveredLength(in range: ByteRange) -> Int64 {
        Node.coveredBefore(range.upperBound, in: root) - Node.coveredBefore(range.lowerBound, in: root)
    }

    /// The covered parts of `range`, in ascending order.
    public func intersection(_ range: ByteRange) -> [ByteRange] {
        Node.spans(in: root, overlapping: range, limit: .max).compactMap { $0.intersection(range) }
    }

    /// The parts of `range` that are not covered, in ascending order.
    public func gaps(in range: ByteRange) -> [ByteRange] {
        var result: [ByteRange] = []
        var cursor = range.lowerBound
        for part in intersection(range) {
            if part.lowerBound > cursor { result.append(ByteRange(cursor, part.lowerBound)) }
            cursor = part.upperBound
        }
        if cursor < range.upperBound { result.append(ByteRange(cursor, range.upperBound)) }
        return result
    }

    public static func == (lhs: ByteRangeSet, rhs: ByteRangeSet) -> Bool {
        lhs.root === rhs.root || lhs.ranges == rhs.ranges
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ranges)
    }

    public var description: String {
        "[" + ranges.map(\.description).joined(separator: ", ") + "]"
    }
}

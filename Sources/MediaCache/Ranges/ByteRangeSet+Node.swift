extension ByteRangeSet {
    /// An immutable AVL tree node. Updates copy the path they change (join-based balancing,
    /// after Blelloch, Ferizovic and Sun, "Just Join for Parallel Ordered Sets").
    final class Node: Sendable {
        let span: ByteRange
        let left: Node?
        let right: Node?
        let height: Int
        /// Number of spans in this subtree.
        let count: Int
        /// Bytes covered by this subtree.
        let covered: Int64

        init(_ left: Node?, _ span: ByteRange, _ right: Node?) {
            self.span = span
            self.left = left
            self.right = right
            self.height = max(left?.height ?? 0, right?.height ?? 0) + 1
            self.count = (left?.count ?? 0) + 1 + (right?.count ?? 0)
            self.covered = (left?.covered ?? 0) + span.length + (right?.covered ?? 0)
        }

        static func height(_ node: Node?) -> Int { node?.height ?? 0 }

        /// A balanced tree of `left`, then `span`, then `right`; every span of `left` must
        /// precede `span` and every span of `right` must follow it.
        static func join(_ left: Node?, _ span: ByteRange, _ right: Node?) -> Node {
            if height(left) > height(right) + 1, let left {
                return joinRight(left, span, right)
            }
            if height(right) > height(left) + 1, let right {
                return joinLeft(left, span, right)
            }
            return Node(left, span, right)
        }

        private static func joinRight(_ left: Node, _ span: ByteRange, _ right: Node?) -> Node {
            if height(left.right) <= height(right) + 1 {
                let inner = Node(left.right, span, right)
                if inner.height <= height(left.left) + 1 {
                    return Node(left.left, left.span, inner)
                }
                return rotateLeft(Node(left.left, left.span, rotateRight(inner)))
            }
            let inner = joinRight(left.right!, span, right)
            let joined = Node(left.left, left.span, inner)
            return inner.height <= height(left.left) + 1 ? joined : rotateLeft(joined)
        }

        private static func joinLeft(_ left: Node?, _ span: ByteRange, _ right: Node) -> Node {
            if height(right.left) <= height(left) + 1 {
                let inner = Node(left, span, right.left)
                if inner.height <= height(right.right) + 1 {
                    return Node(inner, right.span, right.right)
                }
                return rotateRight(Node(rotateLeft(inner), right.span, right.right))
            }
            let inner = joinLeft(left, span, right.left!)
            let joined = Node(inner, right.span, right.right)
            return inner.height <= height(right.right) + 1 ? joined : rotateRight(joined)
        }

        private static func rotateLeft(_ node: Node) -> Node {
            guard let pivot = node.right else { return node }
            return Node(Node(node.left, node.span, pivot.left), pivot.span, pivot.right)
        }

        private static func rotateRight(_ node: Node) -> Node {
            guard let pivot = node.left else { return node }
            return Node(pivot.left, pivot.span, Node(pivot.right, node.span, node.right))
        }

        /// The tree with `span` added; `span` must not touch any stored span. Copies one path.
        static func inserting(_ span: ByteRange, into node: Node?) -> Node {
            guard let node else { return Node(nil, span, nil) }
            if span.lowerBound < node.span.lowerBound {
                return join(inserting(span, into: node.left), node.span, node.right)
            }
            return join(node.left, node.span, inserting(span, into: node.right))
        }

        /// The tree with the stored span `old` changed to `new`, which must keep the order and
        /// touch no other span. Copies one path; the shape stays the same.
        static func replacing(_ old: ByteRange, with new: ByteRange, in node: Node) -> Node {
            if old.lowerBound < node.span.lowerBound, let left = node.left {
                return Node(replacing(old, with: new, in: left), node.span, node.right)
            }
            if old.lowerBound > node.span.lowerBound, let right = node.right {
                return Node(node.left, node.span, replacing(old, with: new, in: right))
            }
            return Node(node.left, new, node.right)
        }

        /// Up to `limit` spans that share a byte with `range`, in order.
        static func spans(in node: Node?, overlapping range: ByteRange, limit: Int) -> [ByteRange] {
            var found: [ByteRange] = []
            collect(node, overlapping: range, limit: limit, into: &found)
            return found
        }

        private static func collect(_ node: Node?, overlapping range: ByteRange, limit: Int, into found: inout [ByteRange]) {
            guard let node, found.count < limit else { return }
            if node.span.lowerBound > range.lowerBound { collect(node.left, overlapping: range, limit: limit, into: &found) }
            if found.count < limit, node.span.overlaps(range) { found.append(node.span) }
            if node.span.upperBound < range.upperBound { collect(node.right, overlapping: range, limit: limit, into: &found) }
        }

        /// Splits the tree where `isRight` turns true; `isRight` must be monotone over the
        /// spans in order (false for a prefix, true for the rest).
        static func split(_ node: Node?, where isRight: (ByteRange) -> Bool) -> (Node?, Node?) {
            guard let node else { return (nil, nil) }
            if isRight(node.span) {
                let (left, right) = split(node.left, where: isRight)
                return (left, join(right, node.span, node.right))
            }
            let (left, right) = split(node.right, where: isRight)
            return (join(node.left, node.span, left), right)
        }

        /// All spans of `left` followed by all spans of `right`.
        static func concatenate(_ left: Node?, _ right: Node?) -> Node? {
            guard let left else { return right }
            let (rest, last) = removeLast(left)
            return join(rest, last, right)
        }

        private static func removeLast(_ node: Node) -> (Node?, ByteRange) {
            guard let right = node.right else { return (node.left, node.span) }
            let (rest, last) = removeLast(right)
            return (join(node.left, node.span, rest), last)
        }

        static func first(_ node: Node?) -> ByteRange? {
            var node = node
            while let left = node?.left { node = left }
            return node?.span
        }

        static func last(_ node: Node?) -> ByteRange? {
            var node = node
            while let right = node?.right { node = right }
            return node?.span
        }

        /// Bytes covered below `offset`.
        static func coveredBefore(_ offset: Int64, in node: Node?) -> Int64 {
            var total: Int64 = 0
            var node = node
            while let current = node {
                if current.span.upperBound <= offset {
                    total += (current.left?.covered ?? 0) + current.span.length
                    node = current.right
                } else if current.span.lowerBound >= offset {
                    node = current.left
                } else {
                    return total + (current.left?.covered ?? 0) + (offset - current.span.lowerBound)
                }
            }
            return total
        }

        static func forEach(_ node: Node?, _ body: (ByteRange) -> Void) {
            guard let node else { return }
            forEach(node.left, body)
            body(node.span)
            forEach(node.right, body)
        }
    }
}

import Foundation

/// The bytes a resource's fetches wrote last, kept in memory for readers close behind them.
///
/// A cold reader follows its fetch by a few chunks; reading those chunks back from the store
/// would copy each byte once more and look up what is cached for every chunk. The bytes are
/// the origin's, kept as they are stored (a response's first chunk just before, so that a
/// miss's first reader need not wait for its data file's creation); the store stays the truth
/// for every reader that comes later, this only spares the copy, and holds at most
/// `capacity` bytes.
struct RecentWrites {
    private struct Written {
        var offset: Int64
        var bytes: Data
        var generation: Generation
        var end: Int64 { offset + Int64(bytes.count) }
    }

    /// The most bytes kept.
    let capacity: Int
    private var written: [Written] = []
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Keeps `bytes`, just stored at `offset`, forgetting the oldest bytes beyond the capacity.
    mutating func append(_ bytes: Data, at offset: Int64, generation: Generation) {
        guard !bytes.isEmpty, bytes.count <= capacity else { return }
        written.append(Written(offset: offset, bytes: bytes, generation: generation))
        count += bytes.count
        while count > capacity {
            count -= written.removeFirst().bytes.count
        }
    }

    /// The kept bytes of `generation` from `position` to the end of the write that holds it,
    /// at most `limit` of them; `nil` when none are kept.
    func bytes(at position: Int64, generation: Generation?, limit: Int64) -> (bytes: Data, generation: Generation)? {
        guard limit > 0,
            let hit = written.last(where: { $0.offset <= position && position < $0.end }),
            generation == nil || generation == hit.generation
        else { return nil }
        let start = Int(position - hit.offset)
        let end = start + Int(min(limit, hit.end - position))
        let bytes =
            start == 0 && end == hit.bytes.count
            ? hit.bytes
            : Data(hit.bytes[(hit.bytes.startIndex + start)..<(hit.bytes.startIndex + end)])
        return (bytes, hit.generation)
    }

    /// The ranges of the kept bytes of `generation`.
    func ranges(of generation: Generation) -> ByteRangeSet {
        ByteRangeSet(written.lazy.filter { $0.generation == generation }.map { ByteRange($0.offset, $0.end) })
    }

    /// Forgets every kept byte.
    mutating func removeAll() {
        written.removeAll()
        count = 0
    }
}

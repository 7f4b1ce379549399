import Crypto
import Foundation

/// A data file of an encrypted store (see ``StoreEncryption``): the resource's bytes in
/// blocks, each sealed once with AES-256-GCM.
///
/// Layout: a header of 32 bytes (the magic `MCSEAL01`, then a random salt of 24 bytes), then
/// block `i` of the plaintext (``StoreEncryption/blockSize`` bytes, the resource's last block
/// shorter) at `32 + i × (blockSize + 16)`, as its ciphertext and tag. The block key comes from
/// the app's key and the salt, which is new with every file, so with every generation of a
/// resource (a new generation removes the old file). The nonce is the block index; the
/// resource's id, generation and the block index are authenticated with each block, so a
/// block copied to another place or file fails to open.
///
/// A block is sealed once, when all its bytes have arrived: until then they wait in memory
/// (at most ``partialLimit`` blocks per file, the oldest forgotten first). ``write(_:at:totalLength:durable:)``
/// returns what it sealed, which is all the store may record; bytes for a block sealed
/// already are not written again, so no nonce seals two plaintexts.
final class SealedDataFile: Sendable {
    static let headerSize: Int64 = 32
    static let tagSize = 16
    static let blockSize = StoreEncryption.blockSize
    /// Unsealed blocks kept in memory per file: a fetch's first and current block each, for a
    /// few fetches.
    static let partialLimit = 16
    private static let magic = Data("MCSEAL01".utf8)

    /// What a write did.
    struct Outcome {
        /// Whole blocks sealed and written by this write: the bytes the store may record.
        var sealed: [ByteRange] = []
        /// Unsealed bytes forgotten to stay within ``SealedDataFile/partialLimit``.
        var dropped: [ByteRange] = []
    }

    /// Why bytes could not be read.
    enum ReadFailure: Error {
        case io(IOError)
        /// The block holding `range` is missing, short or fails authentication.
        case unreadable(ByteRange)
    }

    private struct PartialBlock {
        var bytes: Data
        var filled = ByteRangeSet()
        var lastUse: UInt64
    }

    private struct State {
        var partials: [Int64: PartialBlock] = [:]
        /// The indexes of the blocks this process sealed (as ranges of indexes): a writer whose
        /// view of what is durable predates another's seal must not seal the block again.
        var sealed = ByteRangeSet()
        var uses: UInt64 = 0
        /// The last block opened, for readers that take it in several chunks.
        var opened: (index: Int64, bytes: Data)?
    }

    let file: any RandomAccessFile
    private let path: String
    private let key: SymmetricKey
    private let context: Data
    private let state = Locked(State())

    /// Opens `file` (the data file at `path` of resource `id` at `generation`), writing a new
    /// header with a fresh salt when it has none.
    init(file: any RandomAccessFile, path: String, encryption: StoreEncryption, id: Int64, generation: Generation) throws(IOError) {
        self.file = file
        self.path = path
        var salt: Data
        if try file.size() >= Self.headerSize {
            salt = try file.read(count: Int(Self.headerSize), at: 0).dropFirst(Self.magic.count)
        } else {
            var generator = SystemRandomNumberGenerator()
            salt = Data((0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            try file.truncate(to: 0)
            let header = Self.magic + salt
            try header.withUnsafeBytes { buffer in Result { () throws(IOError) in try file.write(buffer, at: 0) } }.get()
        }
        key = encryption.fileKey(salt: Data(salt))
        context = Self.bigEndian(id) + Self.bigEndian(generation.value)
    }

    /// Whether bytes wait in memory for the rest of their block.
    var hasUnsealedBytes: Bool {
        state.withLock { !$0.partials.isEmpty }
    }

    /// Takes `bytes` at `offset`: seals and writes every block they complete and keeps the rest
    /// of their blocks in memory.
    ///
    /// - Parameters:
    ///   - totalLength: The resource's length when known; its last block is shorter.
    ///   - durable: What is sealed already; those bytes are not written again.
    func write(_ bytes: Data, at offset: Int64, totalLength: Int64?, durable: ByteRangeSet) throws(IOError) -> Outcome {
        let range = ByteRange(offset: offset, length: Int64(bytes.count))
        return try state.withLock { state throws(IOError) -> Outcome in
            var outcome = Outcome()
            for index in Self.blocks(in: range) {
                let block = Self.block(index, totalLength: totalLength)
                guard !durable.gaps(in: block).isEmpty, !state.sealed.contains(index),
                    let piece = range.intersection(block)
                else { continue }
                let slice = bytes[(bytes.startIndex + Int(piece.lowerBound - offset))..<(bytes.startIndex + Int(piece.upperBound - offset))]
                if piece == block {
                    state.partials[index] = nil
                    try seal(Data(slice), index: index, in: &state)
                    outcome.sealed.append(block)
                    continue
                }
                state.uses += 1
                var partial = state.partials[index] ?? PartialBlock(bytes: Data(count: Self.blockSize), lastUse: state.uses)
                let within = ByteRange(piece.lowerBound - block.lowerBound, piece.upperBound - block.lowerBound)
                partial.bytes.replaceSubrange(Int(within.lowerBound)..<Int(within.upperBound), with: slice)
                partial.filled.insert(within)
                partial.lastUse = state.uses
                if partial.filled.contiguousLength(from: 0) >= block.length {
                    state.partials[index] = nil
                    try seal(partial.bytes.prefix(Int(block.length)), index: index, in: &state)
                    outcome.sealed.append(block)
                } else {
                    state.partials[index] = partial
                }
            }
            while state.partials.count > Self.partialLimit,
                let oldest = state.partials.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.partials[oldest.key] = nil
                let start = oldest.key * Int64(Self.blockSize)
                outcome.dropped += oldest.value.filled.ranges.map { ByteRange($0.lowerBound + start, $0.upperBound + start) }
            }
            return outcome
        }
    }

    /// The plaintext of `range`, from blocks waiting in memory or sealed on disk.
    func read(_ range: ByteRange) throws(ReadFailure) -> Data {
        let first = range.lowerBound / Int64(Self.blockSize)
        if range.lowerBound == first * Int64(Self.blockSize), range.length == Int64(Self.blockSize) {
            // One whole block, as sequential readers ask: its plaintext as it is, without a copy.
            let plain = try plaintext(of: first, covering: ByteRange(0, range.length))
            guard plain.count == Self.blockSize else { throw .unreadable(ByteRange(range.lowerBound, range.upperBound)) }
            return plain
        }
        var result = Data(capacity: Int(range.length))
        for index in Self.blocks(in: range) {
            let start = index * Int64(Self.blockSize)
            let block = ByteRange(start, start + Int64(Self.blockSize))
            guard let wanted = range.intersection(block) else { continue }
            let within = Int(wanted.lowerBound - start)..<Int(wanted.upperBound - start)
            let plain = try plaintext(of: index, covering: ByteRange(Int64(within.lowerBound), Int64(within.upperBound)))
            guard plain.count >= within.upperBound else { throw .unreadable(ByteRange(start, start + Int64(Self.blockSize))) }
            result.append(plain[(plain.startIndex + within.lowerBound)..<(plain.startIndex + within.upperBound)])
        }
        return result
    }

    /// The plaintext bytes of block `index` (those in memory, when they cover `within`).
    private func plaintext(of index: Int64, covering within: ByteRange) throws(ReadFailure) -> Data {
        let cached = state.withLock { state -> Data? in
            if let partial = state.partials[index], partial.filled.gaps(in: within).isEmpty { return partial.bytes }
            if let opened = state.opened, opened.index == index { return opened.bytes }
            return nil
        }
        if let cached { return cached }
        let start = index * Int64(Self.blockSize)
        let unreadable = ReadFailure.unreadable(ByteRange(start, start + Int64(Self.blockSize)))
        let sealed: Data
        do {
            sealed = try file.read(count: Self.blockSize + Self.tagSize, at: Self.position(of: index))
        } catch {
            throw .io(error)
        }
        guard sealed.count > Self.tagSize,
            let box = try? AES.GCM.SealedBox(
                nonce: Self.nonce(index), ciphertext: sealed.dropLast(Self.tagSize),
                tag: sealed.suffix(Self.tagSize)),
            let plain = try? AES.GCM.open(box, using: key, authenticating: context + Self.bigEndian(index))
        else { throw unreadable }
        state.withLock { $0.opened = (index, plain) }
        return plain
    }

    private func seal(_ plaintext: Data, index: Int64, in state: inout State) throws(IOError) {
        let box: AES.GCM.SealedBox
        do {
            box = try AES.GCM.seal(plaintext, using: key, nonce: Self.nonce(index), authenticating: context + Self.bigEndian(index))
        } catch {
            throw IOError(operation: "encrypt block \(index)", path: path, code: EINVAL)
        }
        let sealed = box.ciphertext + box.tag
        try sealed.withUnsafeBytes { buffer in Result { () throws(IOError) in try file.write(buffer, at: Self.position(of: index)) } }.get()
        state.sealed.insert(ByteRange(index, index + 1))
    }

    /// How many plaintext bytes a data file of `size` bytes can hold: what the index may claim.
    static func plaintextCapacity(ofFileSize size: Int64) -> Int64 {
        guard size > headerSize else { return 0 }
        let stride = Int64(blockSize + tagSize)
        let blocks = (size - headerSize) / stride
        let rest = (size - headerSize) % stride
        return blocks * Int64(blockSize) + max(0, rest - Int64(tagSize))
    }

    private static func blocks(in range: ByteRange) -> ClosedRange<Int64> {
        (range.lowerBound / Int64(blockSize))...((range.upperBound - 1) / Int64(blockSize))
    }

    private static func block(_ index: Int64, totalLength: Int64?) -> ByteRange {
        let start = index * Int64(blockSize)
        return ByteRange(start, min(start + Int64(blockSize), totalLength ?? .max))
    }

    private static func position(of index: Int64) -> Int64 {
        headerSize + index * Int64(blockSize + tagSize)
    }

    private static func nonce(_ index: Int64) -> AES.GCM.Nonce {
        // Twelve bytes, four zero bytes and then the index: never refused. The key is the file's own.
        guard let nonce = try? AES.GCM.Nonce(data: Data(count: 4) + bigEndian(index)) else {
            preconditionFailure("an AES-GCM nonce of twelve bytes is valid")
        }
        return nonce
    }

    private static func bigEndian(_ value: Int64) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}

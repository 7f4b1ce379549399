import Crypto
import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// Encryption at rest: data files hold ciphertext in sealed blocks, partial caching and random
/// access work as without it, a damaged block is never served, and another key (or none) finds
/// the cache empty and leaves it intact.
@Suite(.timeLimit(.minutes(2))) struct EncryptionTests {
    static let key = SymmetricKey(data: Data((0..<32).map { UInt8($0) }))
    static let otherKey = SymmetricKey(data: Data((0..<32).map { UInt8(255 - $0) }))
    static let block = Int64(StoreEncryption.blockSize)

    static func fixture(key: SymmetricKey? = key) throws -> StoreFixture {
        try StoreFixture { configuration in configuration.encryption = key.flatMap { try? StoreEncryption(key: $0) } }
    }

    /// Writes `name` whole (`length` bytes) in unaligned chunks, as a fetch does.
    static func fillInChunks(_ store: MediaStore, _ name: String, length: Int64, chunk: Int64 = 10_000) throws -> ResourceKey {
        let (key, generation) = try StoreFixture.fill(store, name, length: length, ranges: [])
        var offset: Int64 = 0
        while offset < length {
            let range = ByteRange(offset, min(offset + chunk, length))
            try store.write(StoreFixture.pattern(name, range), at: offset, to: key, generation: generation)
            offset = range.upperBound
        }
        return key
    }

    @Test func theBytesOnDiskAreNotThePlaintextAndReadBackAfterReopening() throws {
        let fixture = try Self.fixture()
        defer { fixture.directory.remove() }
        let length = 3 * Self.block + 1234
        let store = try fixture.open()
        let key = try Self.fillInChunks(store, "a.mp4", length: length)
        let whole = ByteRange(0, length)
        #expect(try store.read(whole, from: key) == StoreFixture.pattern("a.mp4", whole))
        try store.close()

        let onDisk = try #require(FileManager.default.contents(atPath: fixture.directory.appending("data/1.data")))
        let plaintext = StoreFixture.pattern("a.mp4", whole)
        #expect(onDisk.count == 32 + Int(length) + 4 * 16, "a header, then each block with its tag")
        #expect(onDisk.range(of: plaintext.prefix(64)) == nil && onDisk.range(of: plaintext[100_000..<100_064]) == nil)

        let reopened = try fixture.open()
        defer { try? reopened.close() }
        #expect(try reopened.availableRanges(for: key).ranges == [whole])
        let middle = ByteRange(Self.block - 10, 2 * Self.block + 10)
        #expect(try reopened.read(middle, from: key) == StoreFixture.pattern("a.mp4", middle))
    }

    /// Bytes of a block not yet whole are readable at once but never recorded: a reopened store
    /// claims only sealed blocks.
    @Test func anIncompleteBlockIsReadableButNotRecorded() throws {
        let fixture = try Self.fixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let ranges = [ByteRange(0, Self.block + 100), ByteRange(3 * Self.block + 5, 3 * Self.block + 50)]
        let (key, _) = try StoreFixture.fill(store, "b.mp4", length: 10 * Self.block, ranges: ranges)
        #expect(try store.availableRanges(for: key).ranges == ranges)
        #expect(
            try store.read(ByteRange(Self.block, Self.block + 100), from: key)
                == StoreFixture.pattern("b.mp4", ByteRange(Self.block, Self.block + 100)))
        try store.close()
        let reopened = try fixture.open()
        defer { try? reopened.close() }
        #expect(try reopened.availableRanges(for: key).ranges == [ByteRange(0, Self.block)])
    }

    @Test func aFlippedBitIsDroppedNotServed() throws {
        let fixture = try Self.fixture()
        defer { fixture.directory.remove() }
        let length = 3 * Self.block
        let store = try fixture.open()
        let key = try Self.fillInChunks(store, "c.mp4", length: length)
        try store.close()
        let path = fixture.directory.appending("data/1.data")
        var onDisk = try #require(FileManager.default.contents(atPath: path))
        let inSecondBlock = 32 + Int(Self.block) + 16 + 1000
        onDisk[inSecondBlock] ^= 0x04
        try onDisk.write(to: URL(fileURLWithPath: path))

        let reopened = try fixture.open()
        defer { try? reopened.close() }
        #expect(throws: MediaStoreError.self) { try reopened.read(ByteRange(Self.block + 10, Self.block + 20), from: key) }
        #expect(try reopened.availableRanges(for: key).ranges == [ByteRange(0, Self.block), ByteRange(2 * Self.block, length)])
        #expect(try reopened.read(ByteRange(0, Self.block), from: key) == StoreFixture.pattern("c.mp4", ByteRange(0, Self.block)))
    }

    @Test func anotherKeyOrNoneFindsTheCacheEmptyAndLeavesItIntact() throws {
        var fixture = try Self.fixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let key = try Self.fillInChunks(store, "d.mp4", length: 2 * Self.block)
        try store.close()

        for other in [Self.otherKey, nil] {
            fixture.configuration.encryption = other.flatMap { try? StoreEncryption(key: $0) }
            let stranger = try fixture.open()
            #expect(try stranger.entries().isEmpty)
            #expect(stranger.directory != fixture.directory.path)
            _ = try Self.fillInChunks(stranger, "e.mp4", length: 1000)
            try stranger.close()
        }

        fixture.configuration.encryption = try StoreEncryption(key: Self.key)
        let owner = try fixture.open()
        defer { try? owner.close() }
        #expect(try owner.entries().map(\.key) == [key])
        #expect(try owner.read(ByteRange(0, 2 * Self.block), from: key) == StoreFixture.pattern("d.mp4", ByteRange(0, 2 * Self.block)))
    }

    @Test func aKeyOnAnUnencryptedCacheLeavesItAsItIs() throws {
        var fixture = try Self.fixture(key: nil)
        defer { fixture.directory.remove() }
        let plain = try fixture.open()
        let (key, _) = try StoreFixture.fill(plain, "f.mp4", length: 1000, ranges: [ByteRange(0, 1000)])
        try plain.close()

        fixture.configuration.encryption = try StoreEncryption(key: Self.key)
        let encrypted = try fixture.open()
        #expect(try encrypted.entries().isEmpty)
        try encrypted.close()

        fixture.configuration.encryption = nil
        let again = try fixture.open()
        defer { try? again.close() }
        #expect(try again.read(ByteRange(0, 1000), from: key) == StoreFixture.pattern("f.mp4", ByteRange(0, 1000)))
    }

    @Test func keyFilesHoldThirtyTwoBytesOrSixtyFourHexDigits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let hex = directory.appending("hex.key")
        try Data((String(repeating: "0f", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: hex))
        let raw = directory.appending("raw.key")
        try Data(repeating: 0x0f, count: 32).write(to: URL(fileURLWithPath: raw))
        #expect(try StoreEncryption(keyFile: hex).keyIdentifier == StoreEncryption(keyFile: raw).keyIdentifier)
        let short = directory.appending("short.key")
        try Data("abc".utf8).write(to: URL(fileURLWithPath: short))
        #expect(throws: StoreEncryptionError.malformedKeyFile(short)) { try StoreEncryption(keyFile: short) }
        #expect(throws: StoreEncryptionError.unreadableKeyFile(directory.appending("none"))) {
            try StoreEncryption(keyFile: directory.appending("none"))
        }
        #expect(throws: StoreEncryptionError.keySize(16)) { try StoreEncryption(key: SymmetricKey(size: .bits128)) }
    }
}

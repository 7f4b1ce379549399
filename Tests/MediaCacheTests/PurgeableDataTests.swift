import Crypto
import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// With a purgeable folder (`Library/Caches` on iOS) the files of resources that are not
/// pinned live there and the index and pinned files (downloads) stay in the store's own
/// directory: a purge loses cached bytes, never a download, and a store that kept every file
/// together is sorted when it opens.
@Suite(.timeLimit(.minutes(2))) struct PurgeableDataTests {
    @Test func pinningMovesAFileOutOfThePurgeableFolderAndBack() throws {
        let stores = try Stores()
        defer { stores.remove() }
        let (fixture, purgeable, configuration) = (stores.fixture, stores.purgeable, stores.configuration)
        let store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        let (key, _) = try StoreFixture.fill(store, "film.mp4", length: 100_000, ranges: [ByteRange(0, 100_000)])
        #expect(Self.files(in: purgeable.path + "/data").count == 1 && Self.files(in: fixture.directory.path + "/data").isEmpty)

        try store.setPinned(true, for: key)
        #expect(Self.files(in: purgeable.path + "/data").isEmpty && Self.files(in: fixture.directory.path + "/data").count == 1)
        #expect(try store.read(ByteRange(0, 100_000), from: key) == StoreFixture.pattern("film.mp4", ByteRange(0, 100_000)))
        try store.setPinned(false, for: key)
        #expect(Self.files(in: purgeable.path + "/data").count == 1)
        #expect(try store.read(ByteRange(5_000, 10_000), from: key) == StoreFixture.pattern("film.mp4", ByteRange(5_000, 10_000)))
        try store.close()
    }

    @Test func aPurgeLosesCachedBytesAndNeverADownload() throws {
        let stores = try Stores()
        defer { stores.remove() }
        let (fixture, purgeable, configuration) = (stores.fixture, stores.purgeable, stores.configuration)
        var store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        let (download, _) = try StoreFixture.fill(store, "download.mp4", length: 80_000, ranges: [ByteRange(0, 80_000)])
        try store.setPinned(true, for: download)
        let (cached, _) = try StoreFixture.fill(store, "cached.mp4", length: 60_000, ranges: [ByteRange(0, 60_000)])
        try store.close()

        try FileManager.default.removeItem(atPath: purgeable.path)  // iOS empties Library/Caches
        store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        #expect(try store.availableRanges(for: download) == [ByteRange(0, 80_000)])
        #expect(try store.read(ByteRange(0, 80_000), from: download) == StoreFixture.pattern("download.mp4", ByteRange(0, 80_000)))
        #expect(try store.availableRanges(for: cached).isEmpty, "purged bytes count as not cached")
        try store.close()
    }

    @Test func aStoreThatKeptEveryFileTogetherIsSortedWhenItOpensAndKeepsItsBytes() throws {
        let stores = try Stores()
        defer { stores.remove() }
        let (fixture, purgeable) = (stores.fixture, stores.purgeable)
        var store = try fixture.open()  // the layout before purgeable folders
        let (download, _) = try StoreFixture.fill(store, "download.mp4", length: 50_000, ranges: [ByteRange(0, 50_000)])
        try store.setPinned(true, for: download)
        let (cached, _) = try StoreFixture.fill(store, "cached.mp4", length: 40_000, ranges: [ByteRange(0, 40_000)])
        try store.close()
        #expect(Self.files(in: fixture.directory.path + "/data").count == 2)

        store = try MediaStore.open(at: fixture.directory.path, configuration: stores.configuration)
        #expect(Self.files(in: fixture.directory.path + "/data").count == 1, "the download stays")
        #expect(Self.files(in: purgeable.path + "/data").count == 1, "the cached file moves out")
        #expect(try store.read(ByteRange(0, 50_000), from: download) == StoreFixture.pattern("download.mp4", ByteRange(0, 50_000)))
        #expect(try store.read(ByteRange(0, 40_000), from: cached) == StoreFixture.pattern("cached.mp4", ByteRange(0, 40_000)))
        try store.close()
    }

    @Test func aStoreThatLivedInThePurgeableFolderMovesOutAndKeepsItsBytes() throws {
        let old = try TemporaryDirectory()  // Library/Caches/mediacache, where the store was
        let fixture = try StoreFixture()  // Application Support/mediacache, where it goes
        defer { old.remove(); fixture.directory.remove() }
        var store = try MediaStore.open(at: old.path, configuration: fixture.configuration)
        let (download, _) = try StoreFixture.fill(store, "download.mp4", length: 50_000, ranges: [ByteRange(0, 50_000)])
        try store.setPinned(true, for: download)
        let (cached, _) = try StoreFixture.fill(store, "cached.mp4", length: 40_000, ranges: [ByteRange(0, 40_000)])
        try store.close()

        var configuration = fixture.configuration
        configuration.purgeableDirectory = old.path
        store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        #expect(FileManager.default.fileExists(atPath: fixture.directory.path + "/index.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: old.path + "/index.sqlite"))
        #expect(Self.files(in: fixture.directory.path + "/data").count == 1 && Self.files(in: old.path + "/data").count == 1)
        #expect(try store.read(ByteRange(0, 50_000), from: download) == StoreFixture.pattern("download.mp4", ByteRange(0, 50_000)))
        #expect(try store.read(ByteRange(0, 40_000), from: cached) == StoreFixture.pattern("cached.mp4", ByteRange(0, 40_000)))
        #expect(try store.entries().first { $0.key == download }?.isPinned == true)
        try store.close()
    }

    @Test func aFileLeftInTheWrongFolderByACrashIsPlacedWhenTheStoreOpens() throws {
        let stores = try Stores()
        defer { stores.remove() }
        let (fixture, purgeable, configuration) = (stores.fixture, stores.purgeable, stores.configuration)
        var store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        let (download, _) = try StoreFixture.fill(store, "download.mp4", length: 30_000, ranges: [ByteRange(0, 30_000)])
        try store.setPinned(true, for: download)
        try store.close()
        // A crash between moving a file and recording its unpinning leaves it here.
        let name = try #require(Self.files(in: fixture.directory.path + "/data").first)
        try FileManager.default.moveItem(atPath: fixture.directory.path + "/data/" + name, toPath: purgeable.path + "/data/" + name)

        store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        #expect(Self.files(in: fixture.directory.path + "/data") == [name])
        #expect(try store.availableRanges(for: download) == [ByteRange(0, 30_000)])
        try store.close()
    }

    @Test func anEncryptedStoresFilesGoToTheSameKeyedFolderInThePurgeableOne() throws {
        let stores = try Stores { $0.encryption = try? StoreEncryption(key: SymmetricKey(size: .bits256)) }
        defer { stores.remove() }
        let (purgeable, configuration) = (stores.purgeable, stores.configuration)
        let fixture = stores.fixture
        var store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        let (download, _) = try StoreFixture.fill(store, "download.mp4", length: 70_000, ranges: [ByteRange(0, 70_000)])
        try store.setPinned(true, for: download)
        let (cached, _) = try StoreFixture.fill(store, "cached.mp4", length: 70_000, ranges: [ByteRange(0, 70_000)])
        try store.close()
        #expect(Self.files(in: purgeable.path + "/data").count == 1)
        try FileManager.default.removeItem(atPath: purgeable.path)

        store = try MediaStore.open(at: fixture.directory.path, configuration: configuration)
        #expect(try store.read(ByteRange(0, 70_000), from: download) == StoreFixture.pattern("download.mp4", ByteRange(0, 70_000)))
        #expect(try store.availableRanges(for: cached).isEmpty)
        try store.close()
    }

    /// A store's directory, a purgeable folder, and a configuration naming it.
    private struct Stores {
        let fixture: StoreFixture
        let purgeable: TemporaryDirectory
        let configuration: MediaStore.Configuration

        init(configure: (inout MediaStore.Configuration) -> Void = { _ in }) throws {
            fixture = try StoreFixture(configure: configure)
            purgeable = try TemporaryDirectory()
            var configuration = fixture.configuration
            configuration.purgeableDirectory = purgeable.path
            self.configuration = configuration
        }

        func remove() {
            fixture.directory.remove()
            purgeable.remove()
        }
    }

    private static func files(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
}

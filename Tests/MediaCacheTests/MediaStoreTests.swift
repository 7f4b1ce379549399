import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCache

@Suite(.timeLimit(.minutes(2))) struct MediaStoreTests {
    @Test func bytesRoundTripAndSurviveReopening() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let ranges = [ByteRange(0, 1000), ByteRange(5000, 9000)]
        var store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 10_000, ranges: ranges)
        #expect(try store.read(ByteRange(100, 900), from: key) == StoreFixture.pattern("a.mp4", ByteRange(100, 900)))
        try store.close()

        store = try fixture.open()
        let record = try #require(try store.record(for: key))
        #expect(record.available.ranges == ranges)
        #expect(record.contentInfo.totalLength == 10_000)
        #expect(record.contentInfo.etag == "\"v1\"")
        #expect(try store.read(ByteRange(5000, 9000), from: key) == StoreFixture.pattern("a.mp4", ByteRange(5000, 9000)))
        try store.close()
    }

    @Test func aKeyLookedUpBeforeItWasStoredIsFoundOnceItIs() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let url = URL(string: "https://cdn.example/new.mp4")!
        #expect(try store.record(for: store.key(for: url)) == nil)
        #expect(try store.record(for: store.key(for: url)) == nil, "asked again, without the index")
        try store.setContentInfo(ContentInfo(totalLength: 10), for: url)
        #expect(try store.record(for: store.key(for: url))?.contentInfo.totalLength == 10)
        try store.close()
    }

    /// Resources are created outside the catalog lock: many threads creating the same resources
    /// at once, while others look them up, make one resource each, whose bytes all land.
    @Test func resourcesCreatedFromManyThreadsAtOnceAreEachCreatedOnce() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let urls = (0..<8).map { URL(string: "https://cdn.example/\($0).mp4")! }
        try await withThrowingTaskGroup { group in
            for writer in 0..<8 {
                group.addTask {
                    for url in urls {
                        let generation = try store.setContentInfo(ContentInfo(totalLength: 800, etag: "\"v1\""), for: url)
                        try store.write(
                            Data(repeating: UInt8(writer), count: 100), at: Int64(writer) * 100,
                            to: store.key(for: url), generation: generation)
                        _ = try store.record(for: store.key(for: urls[(writer + 1) % urls.count]))
                    }
                }
            }
            try await group.waitForAll()
        }
        try store.commit()
        #expect(try store.entries().count == urls.count)
        for url in urls {
            let record = try #require(try store.record(for: store.key(for: url)))
            #expect(record.generation == .initial && record.isComplete)
        }
        try store.close()
    }

    @Test func keysAreKnownWithoutTheIndexAcrossRemovalAndReopening() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        var store = try fixture.open()
        let url = URL(string: "https://cdn.example/kept.mp4")!
        let key = store.key(for: url)
        try store.setContentInfo(ContentInfo(totalLength: 10), for: url)
        try store.remove(key)
        #expect(try store.record(for: key) == nil)
        #expect(throws: MediaStoreError.self) { try store.remove(key) }
        try store.setContentInfo(ContentInfo(totalLength: 20), for: url)
        try store.close()

        store = try fixture.open()
        #expect(try store.record(for: key)?.contentInfo.totalLength == 20, "keys stored before are known after reopening")
        #expect(try store.setContentInfo(ContentInfo(totalLength: 20), for: url) == .initial, "the stored resource, not a new one")
        try store.close()
    }

    /// The index's log is copied into the database beside the writes that grow it, with no
    /// commit: many resources created in a row (a feed's misses) leave a log of a few
    /// checkpoints' worth, where without checkpoints it would hold every page they wrote.
    @Test func theIndexLogIsCheckpointedBesideTheWritesThatGrowIt() throws {
        let fixture = try StoreFixture { $0.commitInterval = .seconds(3600) }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let log = fixture.directory.appending("index.sqlite-wal")
        func logSize() -> Int64 { (try? LocalFileSystem().sizeOfFile(at: log)).flatMap { $0 } ?? 0 }
        let count = 8_000
        for index in 0..<count {
            try store.setContentInfo(ContentInfo(totalLength: 10), for: URL(string: "https://cdn.example/\(index).mp4")!)
        }
        store.checkpointQueue.sync {}
        let limit = StoreIndex.checkpointLogBytes
        #expect(logSize() < 8 * limit, "\(count) resources left a log of \(logSize()) bytes")
        #expect(try store.record(for: store.key(for: URL(string: "https://cdn.example/0.mp4")!)) != nil)
        try store.close()
    }

    @Test func writtenBytesAreReadableBeforeTheyAreCommitted() throws {
        let fixture = try StoreFixture { $0.commitBatchBytes = 1 << 30 }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 50)])
        #expect(try store.read(ByteRange(0, 50), from: key) == StoreFixture.pattern("a.mp4", ByteRange(0, 50)))
        #expect(try store.entries().first?.cachedBytes == 50)
        try store.close()
    }

    @Test func missingBytesAreNamedPrecisely() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 10), ByteRange(20, 30)])
        #expect {
            try store.read(ByteRange(0, 40), from: key)
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .notCached else { return false }
            return error.ranges == [ByteRange(10, 20), ByteRange(30, 40)]
        }
        #expect(throws: MediaStoreError.self) { try store.read(ByteRange(0, 1), from: ResourceKey("nope")) }
        try store.close()
    }

    @Test func aChangedVersionDropsOldBytesAndRejectsLateWrites() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, first) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 100)])
        try store.commit()

        let url = StoreFixture.url("a.mp4")
        let second = try store.setContentInfo(ContentInfo(totalLength: 100, etag: "\"v2\""), for: url)
        #expect(second == first.next)
        #expect(try store.availableRanges(for: key).isEmpty)
        #expect(
            try fixture.configuration.fileSystem.sizeOfFile(at: fixture.directory.path + "/data/1.data") == nil,
            "the old generation's file is removed")
        #expect {
            try store.write(Data(count: 10), at: 0, to: key, generation: first)
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .staleGeneration else { return false }
            return error.message.contains("(\(first) -> \(second))")
        }
        #expect(throws: MediaStoreError.self) { try store.read(ByteRange(0, 10), from: key, generation: first) }

        // The same version again, described with fewer fields, keeps the bytes.
        try store.write(StoreFixture.pattern("a.mp4", ByteRange(0, 10), etag: "\"v2\""), at: 0, to: key, generation: second)
        #expect(try store.setContentInfo(ContentInfo(totalLength: 100), for: url) == second)
        #expect(try store.availableRanges(for: key).ranges == [ByteRange(0, 10)])
        try store.close()

        let reopened = try fixture.open()
        #expect(try reopened.record(for: key)?.generation == second)
        #expect(try reopened.availableRanges(for: key).ranges == [ByteRange(0, 10)])
        try reopened.close()
    }

    @Test func invalidContentInformationAndOverlongWritesAreRefused() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let url = StoreFixture.url("a.mp4")
        #expect(throws: MediaStoreError.self) { try store.setContentInfo(ContentInfo(totalLength: 0), for: url) }
        #expect(try store.entries().isEmpty)
        let generation = try store.setContentInfo(ContentInfo(totalLength: 10), for: url)
        #expect {
            try store.write(Data(count: 5), at: 8, to: store.key(for: url), generation: generation)
        } throws: { error in
            guard (error as? MediaStoreError)?.code == .beyondEnd else { return false }
            return true
        }
        #expect(try store.availableRanges(for: store.key(for: url)).isEmpty)
        try store.close()
    }

    @Test func commitsHappenOnceABatchIsFull() async throws {
        let fixture = try StoreFixture {
            $0.commitBatchBytes = 100
            $0.commitInterval = .seconds(86_400)
        }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 60)])
        #expect(try IndexReader(fixture).spans(of: key).isEmpty)
        await store.batchCommitFinished()
        #expect(try IndexReader(fixture).spans(of: key).isEmpty)
        try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(60, 120)])
        await store.batchCommitFinished()
        #expect(try IndexReader(fixture).spans(of: key) == [ByteRange(0, 120)])
        try store.close()
    }

    @Test func commitsHappenWhenTheIntervalPasses() async throws {
        let clock = ManualClock()
        let fixture = try StoreFixture {
            $0.clock = clock
            $0.commitBatchBytes = 1 << 30
            $0.commitInterval = .seconds(1)
        }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        await clock.waitForSleepers(1)
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 10)])
        #expect(try IndexReader(fixture).spans(of: key).isEmpty)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(try IndexReader(fixture).spans(of: key) == [ByteRange(0, 10)])
        try store.close()
    }

    @Test func anotherOpenerIsToldWhichProcessOwnsTheDirectory() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        #expect {
            try fixture.open()
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .directoryInUse else { return false }
            return error.ownerPID == ProcessInfo.processInfo.processIdentifier
                && "\(error)".contains("process \(ProcessInfo.processInfo.processIdentifier)")
        }
        try store.close()
        try fixture.open().close()
    }

    @Test func reopeningDropsSpansPastTheDataFileAndRemovesOrphans() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        var store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 300), ByteRange(500, 800)])
        try store.close()
        let dataFile = fixture.directory.path + "/data/1.data"
        try #require(truncate(dataFile, 200) == 0)
        let orphan = fixture.directory.path + "/data/99.data"
        #expect(FileManager.default.createFile(atPath: orphan, contents: Data([1, 2, 3])))

        store = try fixture.open()
        #expect(try store.availableRanges(for: key).ranges == [ByteRange(0, 200)])
        #expect(try IndexReader(fixture).spans(of: key) == [ByteRange(0, 200)])
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(try store.read(ByteRange(0, 200), from: key) == StoreFixture.pattern("a.mp4", ByteRange(0, 200)))
        try store.close()
    }

    @Test func listingRemovingAndPinning() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (a, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 250)])
        let (b, _) = try StoreFixture.fill(store, "b.mp4", length: 400, ranges: [ByteRange(0, 400)])
        try store.setPinned(true, for: b)

        let entries = try store.entries()
        #expect(Set(entries.map(\.key)) == [a, b])
        let entryA = try #require(entries.first { $0.key == a })
        #expect(entryA.url == StoreFixture.url("a.mp4").absoluteString)
        #expect(entryA.percentCached == 25)
        #expect(entryA.isPinned == false)
        #expect(entries.first { $0.key == b }?.isPinned == true)
        let usage = try store.usage()
        #expect(usage.entryCount == 2)
        #expect(usage.pinnedCount == 1)
        #expect(usage.cachedBytes == 650)
        #expect(usage.pinnedBytes == 400)

        #expect(try store.removeAll(includingPinned: false).count == 1)
        #expect(try store.entries().map(\.key) == [b])
        try store.remove(b)
        #expect(try store.entries().isEmpty)
        #expect(throws: MediaStoreError.self) { try store.remove(b) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path + "/data").isEmpty)
        try store.close()
    }
}

import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// Disk-full and I/O failures: a precise error for the operation that failed, an index that
/// stays consistent, and other resources that keep working.
@Suite(.timeLimit(.minutes(2))) struct StoreFailureTests {
    @Test func aFullDiskFailsThatWriteOnlyAndRecordsNothing() throws {
        let files = FaultyFileSystem()
        let fixture = try StoreFixture { $0.fileSystem = files }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (a, generation) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 100)])
        let (b, _) = try StoreFixture.fill(store, "b.mp4", length: 1000, ranges: [ByteRange(0, 100)])

        files.inject(.write, code: ENOSPC, pathContaining: "/data/1.data")
        #expect {
            try store.write(StoreFixture.pattern("a.mp4", ByteRange(100, 200)), at: 100, to: a, generation: generation)
        } throws: { error in
            guard let error = error as? MediaStoreError, error.isDiskFull else { return false }
            return error.key == a && error.ioError?.code == ENOSPC && "\(error)".contains("disk full")
        }
        #expect(try store.availableRanges(for: a).ranges == [ByteRange(0, 100)])

        // The other resource keeps working, and everything recorded is still right.
        try StoreFixture.fill(store, "b.mp4", length: 1000, ranges: [ByteRange(100, 300)])
        try store.commit()
        #expect(try IndexReader(fixture).spans(of: a) == [ByteRange(0, 100)])
        #expect(try IndexReader(fixture).spans(of: b) == [ByteRange(0, 300)])

        files.healAll()
        try store.write(StoreFixture.pattern("a.mp4", ByteRange(100, 200)), at: 100, to: a, generation: generation)
        try store.close()

        let reopened = try fixture.open()
        #expect(try reopened.read(ByteRange(0, 200), from: a) == StoreFixture.pattern("a.mp4", ByteRange(0, 200)))
        try reopened.close()
    }

    @Test func aFailedFlushKeepsThoseSpansPendingAndRecordsTheRest() throws {
        let files = FaultyFileSystem()
        let fixture = try StoreFixture {
            $0.fileSystem = files
            $0.commitBatchBytes = 1 << 30
        }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (a, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 100)])
        let (b, _) = try StoreFixture.fill(store, "b.mp4", length: 1000, ranges: [ByteRange(0, 100)])

        files.inject(.synchronize, code: EIO, pathContaining: "/data/1.data")
        #expect {
            try store.commit()
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .io else { return false }
            return error.key == a && error.ioError?.code == EIO
        }
        #expect(try IndexReader(fixture).spans(of: a).isEmpty)
        #expect(try IndexReader(fixture).spans(of: b) == [ByteRange(0, 100)])
        #expect(try store.read(ByteRange(0, 100), from: a) == StoreFixture.pattern("a.mp4", ByteRange(0, 100)))

        files.healAll()
        try store.commit()
        #expect(try IndexReader(fixture).spans(of: a) == [ByteRange(0, 100)])
        try store.close()
    }

    @Test func unreadableAndUnopenableFilesFailThatResourceOnly() throws {
        let files = FaultyFileSystem()
        let fixture = try StoreFixture { $0.fileSystem = files }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (a, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 100)])
        let (b, _) = try StoreFixture.fill(store, "b.mp4", length: 1000, ranges: [ByteRange(0, 100)])
        try store.commit()

        files.inject(.read, code: EIO, pathContaining: "/data/1.data")
        #expect(throws: MediaStoreError.self) { try store.read(ByteRange(0, 10), from: a) }
        #expect(try store.read(ByteRange(0, 10), from: b) == StoreFixture.pattern("b.mp4", ByteRange(0, 10)))
        files.healAll()

        files.inject(.open, code: EMFILE, pathContaining: "/data/")
        let c = StoreFixture.url("c.mp4")
        let generation = try store.setContentInfo(ContentInfo(totalLength: 10), for: c)
        #expect(throws: MediaStoreError.self) {
            try store.write(Data(count: 10), at: 0, to: store.key(for: c), generation: generation)
        }
        #expect(try store.availableRanges(for: store.key(for: c)).isEmpty)
        files.healAll()
        #expect(try store.read(ByteRange(0, 100), from: a) == StoreFixture.pattern("a.mp4", ByteRange(0, 100)))
        try store.close()
    }

    @Test func aDataFileCutBehindTheStoresBackIsReportedAndForgotten() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (a, _) = try StoreFixture.fill(store, "a.mp4", length: 1000, ranges: [ByteRange(0, 500)])
        try store.commit()
        try #require(truncate(fixture.directory.path + "/data/1.data", 100) == 0)
        #expect {
            try store.read(ByteRange(0, 300), from: a)
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .dataMissing else { return false }
            return error.ranges == [ByteRange(100, 300)]
        }
        #expect(try store.availableRanges(for: a).ranges == [ByteRange(0, 100)])
        #expect(try IndexReader(fixture).spans(of: a) == [ByteRange(0, 100)])
        try store.close()
    }
}

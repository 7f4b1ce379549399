import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCache

/// Cached bytes handed out as spans of the data file, for servers that send files.
@Suite(.timeLimit(.minutes(2))) struct StoredFileSpanTests {
    @Test func aSpanHoldsExactlyTheCachedBytesAskedFor() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 60)])
        let span = try #require(try store.fileSpan(ByteRange(10, 50), of: key))
        #expect(span.offset == 10 && span.length == 40)
        #expect(try Self.contents(of: span) == StoreFixture.pattern("a.mp4", ByteRange(10, 50)))
        #expect {
            try store.fileSpan(ByteRange(50, 70), of: key)
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .notCached else { return false }
            return error.ranges == [ByteRange(60, 70)]
        }
        try store.close()
    }

    @Test func aSpanKeepsTheBytesItWasMadeForWhenTheContentChanges() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, first) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 100)])
        let old = try #require(try store.fileSpan(ByteRange(0, 100), of: key))

        // A new version, written over the same offsets while the old span is still being sent.
        let (_, second) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 100)], etag: "\"v2\"")
        #expect(second == first.next)
        #expect(try Self.contents(of: old) == StoreFixture.pattern("a.mp4", ByteRange(0, 100)))
        let new = try #require(try store.fileSpan(ByteRange(0, 100), of: key, generation: second))
        #expect(try Self.contents(of: new) == StoreFixture.pattern("a.mp4", ByteRange(0, 100), etag: "\"v2\""))
        #expect(throws: MediaStoreError.self) { try store.fileSpan(ByteRange(0, 10), of: key, generation: first) }

        // Removal does not cut a span short either.
        try store.remove(key)
        #expect(try Self.contents(of: new) == StoreFixture.pattern("a.mp4", ByteRange(0, 100), etag: "\"v2\""))
        try store.close()
    }

    @Test func onlyFileSystemsWithDescriptorsToSendGiveSpans() throws {
        for sendsFiles in [false, true] {
            let fixture = try StoreFixture { $0.fileSystem = FaultyFileSystem(sendsFiles: sendsFiles) }
            defer { fixture.directory.remove() }
            let store = try fixture.open()
            let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 100)])
            #expect((try store.fileSpan(ByteRange(0, 100), of: key) != nil) == sendsFiles)
            try store.close()
        }
    }

    @Test func aDataFileShorterThanItsIndexGivesNoSpanAndTheReadReportsTheLoss() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 100)])
        try #require(truncate(fixture.directory.path + "/data/1.data", 50) == 0)
        #expect(try store.fileSpan(ByteRange(0, 100), of: key) == nil)
        #expect {
            try store.read(ByteRange(0, 100), from: key)
        } throws: { error in
            guard let error = error as? MediaStoreError, error.code == .dataMissing else { return false }
            return error.ranges == [ByteRange(50, 100)]
        }
        try store.close()
    }

    @Test func theDescriptorIsHandedOverOnce() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        let (key, _) = try StoreFixture.fill(store, "a.mp4", length: 100, ranges: [ByteRange(0, 100)])
        let span = try #require(try store.fileSpan(ByteRange(0, 100), of: key))
        let descriptor = try #require(span.takeDescriptor())
        defer { close(descriptor) }
        #expect(span.takeDescriptor() == nil)
        #expect(throws: IOError.self) { try Self.contents(of: span) }
        try store.close()
    }

    /// Every byte of `span`, read in pieces of 7 bytes to cover reads from inside it.
    private static func contents(of span: StoredFileSpan) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 7)
        while Int64(data.count) < span.length {
            let count = try buffer.withUnsafeMutableBytes { try span.read(from: Int64(data.count), into: $0) }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}

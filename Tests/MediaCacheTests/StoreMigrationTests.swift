import Foundation
import GRDB
import MediaCache
import MediaCacheTesting
import Testing

/// Caches written by earlier versions open, keep every byte, and gain the newer columns.
@Suite(.timeLimit(.minutes(2))) struct StoreMigrationTests {
    /// Writes a cache exactly as version 1 of the index left it: its schema, its migration
    /// record, one resource with two spans and the data file behind them.
    func writeVersion1Cache(at directory: String, url: URL, key: String, bytes: Data) throws {
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory + "/index.sqlite")
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1');
                    CREATE TABLE resource (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        key TEXT NOT NULL UNIQUE,
                        url TEXT NOT NULL,
                        total_length INTEGER CHECK (total_length IS NULL OR total_length > 0),
                        mime_type TEXT,
                        accepts_ranges INTEGER NOT NULL,
                        etag TEXT,
                        last_modified TEXT,
                        generation INTEGER NOT NULL,
                        pinned INTEGER NOT NULL DEFAULT 0,
                        last_access REAL NOT NULL
                    );
                    CREATE TABLE span (
                        resource_id INTEGER NOT NULL REFERENCES resource(id) ON DELETE CASCADE,
                        start INTEGER NOT NULL,
                        "end" INTEGER NOT NULL CHECK ("end" > start),
                        PRIMARY KEY (resource_id, start)
                    ) WITHOUT ROWID;
                    CREATE INDEX resource_last_access ON resource(last_access);
                    """)
            try db.execute(
                sql: """
                    INSERT INTO resource (id, key, url, total_length, mime_type, accepts_ranges, etag, generation, pinned, last_access)
                    VALUES (1, ?, ?, ?, 'video/mp4', 1, '"v1"', 3, 1, 1700000000)
                    """,
                arguments: [key, url.absoluteString, bytes.count])
            try db.execute(sql: "INSERT INTO span VALUES (1, 0, 1000), (1, 2000, ?)", arguments: [bytes.count])
        }
        try queue.close()
        try bytes.write(to: URL(fileURLWithPath: directory + "/data/1.data"))
    }

    @Test func aVersion1CacheOpensAndKeepsItsBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = URL(string: "https://origin.test/media/old.mp4")!
        let bytes = TestPattern.data(offset: 0, length: 5_000, seed: 42)
        try writeVersion1Cache(at: directory.path, url: url, key: url.absoluteString, bytes: bytes)

        let store = try MediaStore.open(at: directory.path)
        let key = store.key(for: url)
        let record = try #require(try store.record(for: key))
        #expect(record.generation == Generation(3) && record.isPinned)
        #expect(record.contentInfo == ContentInfo(totalLength: 5_000, mimeType: "video/mp4", etag: "\"v1\""))
        #expect(record.validatedAt == nil, "a version 1 cache never recorded a confirmation")
        #expect(record.available == ByteRangeSet([ByteRange(0, 1000), ByteRange(2000, 5000)]))
        #expect(Bytes(try store.read(ByteRange(2000, 5000), from: key)) == Bytes(bytes[2000..<5000]))

        try store.markValidated(key)
        try store.close()
        let reopened = try MediaStore.open(at: directory.path)
        #expect(try reopened.record(for: key)?.validatedAt != nil, "the new column is written and read back")
        #expect(Bytes(try reopened.read(ByteRange(0, 1000), from: key)) == Bytes(bytes[0..<1000]))
        try reopened.close()
    }
}

import Foundation
import GRDB

/// The SQLite index of a store: which resources exist, what the origin said about them, and
/// which byte spans of each are durably on disk. All statements are plain SQL.
final class StoreIndex: Sendable {
    /// A resource row.
    struct Resource {
        var id: Int64
        var key: ResourceKey
        var url: String
        var info: ContentInfo
        var generation: Generation
        var isPinned: Bool
        var lastAccess: Date
        /// When the origin last confirmed the content; `nil` when never recorded.
        var validatedAt: Date?
    }

    /// Spans and access times to record in one transaction.
    struct Commit {
        struct Spans {
            var id: Int64
            var generation: Generation
            /// The merged spans that now cover the new bytes; each replaces the spans inside it.
            var merged: [ByteRange]

            /// The merged spans that cover `new` bytes once they join the `recorded` ones, in order.
            static func merged(_ new: ByteRangeSet, joining recorded: ByteRangeSet) -> [ByteRange] {
                var combined = recorded
                combined.formUnion(new)
                return Set(new.ranges.compactMap { combined.range(containing: $0.lowerBound) }).sorted { $0.lowerBound < $1.lowerBound }
            }
        }
        var spans: [Spans] = []
        var accessTimes: [Int64: Date] = [:]
    }

    let pool: DatabasePool
    /// Checkpoints the log beside the pool (see ``checkpointIfLarge()``); `nil` for an index
    /// opened for reading only.
    private let checkpointer: DatabaseQueue?
    /// The log's shared-memory index, for ``logNeedsCheckpoint``; `nil` for an index opened
    /// for reading only.
    private let logIndex: FileHandle?

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase(Self.prepareLog)
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
        checkpointer = try Self.checkpointer(path: path)
        logIndex = try Self.logIndex(path: path)
    }

    /// How large the write-ahead log grows before ``checkpointIfLarge()`` checkpoints it.
    static let checkpointLogBytes: Int64 = 4 << 20

    /// Whether the write-ahead log holds more than ``checkpointLogBytes`` not yet in the database.
    var logNeedsCheckpoint: Bool {
        guard let logIndex else { return false }
        return Self.uncheckpointedLogBytes(in: logIndex) > Self.checkpointLogBytes
    }

    /// Once the write-ahead log holds more than ``checkpointLogBytes`` not yet in the database,
    /// copies them there, and has SQLite start the log over at the next write.
    ///
    /// The copy and its two flushes run as a passive checkpoint on a connection of their own,
    /// while the pool's writer goes on writing. Only what was written meanwhile is copied
    /// through the writer, whose restart checkpoint then waits up to 0.1 s for readers still
    /// on the log (otherwise the next call tries again). The log's file keeps its size.
    ///
    /// A checkpoint made whole through the writer would hold every write, a miss's creation of
    /// its resource included, while it copies the log.
    func checkpointIfLarge() throws {
        guard let checkpointer, logNeedsCheckpoint else { return }
        do {
            try checkpointer.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA busy_timeout = 100")
                defer { try? db.execute(sql: "PRAGMA busy_timeout = 0") }
                _ = try db.checkpoint(.restart)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return
        }
    }

    /// Opens the index at `path` for reading only, for a process that may not write the cache
    /// directory; nothing is migrated.
    ///
    /// - Throws: ``StoreIndexError/olderSchema`` when the index was written by an older version
    ///   and needs a migration only a writer can make; SQLite's error when it cannot be read.
    init(readingAt path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        pool = try DatabasePool(path: path, configuration: configuration)
        checkpointer = nil
        logIndex = nil
        let current = try pool.read { db in try Self.migrator.hasCompletedMigrations(db) }
        guard current else {
            try? pool.close()
            throw StoreIndexError.olderSchema
        }
    }

    func close() throws {
        try? logIndex?.close()
        try checkpointer?.close()
        try pool.close()
    }

    // MARK: Resources

    func resource(for key: ResourceKey) throws -> Resource? {
        try pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM resource WHERE key = ?"), arguments: [key.rawValue])
                .map(Self.resource)
        }
    }

    func insertResource(key: ResourceKey, url: String, info: ContentInfo, now: Date) throws -> Resource {
        // One statement is its own transaction: GRDB's BEGIN and COMMIT around it would delay a
        // miss's first byte, for no atomicity it lacks.
        try pool.writeWithoutTransaction { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO resource (key, url, total_length, mime_type, accepts_ranges, etag, last_modified,
                                          final_url, generation, pinned, last_access, validated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
                    """
            ).execute(
                arguments: [
                    key.rawValue, url, info.totalLength, info.mimeType, info.acceptsRanges, info.etag,
                    info.lastModified, info.finalURL?.absoluteString, Generation.initial.value,
                    now.timeIntervalSince1970, now.timeIntervalSince1970,
                ])
            return Resource(
                id: db.lastInsertedRowID, key: key, url: url, info: info,
                generation: .initial, isPinned: false, lastAccess: now, validatedAt: now)
        }
    }

    func updateContentInfo(id: Int64, info: ContentInfo) throws {
        try pool.write { db in
            try db.execute(
                sql: """
                    UPDATE resource SET total_length = ?, mime_type = ?, accepts_ranges = ?, etag = ?, last_modified = ?,
                                        final_url = ?
                    WHERE id = ?
                    """,
                arguments: [
                    info.totalLength, info.mimeType, info.acceptsRanges, info.etag, info.lastModified,
                    info.finalURL?.absoluteString, id,
                ])
        }
    }

    /// Moves the resource to `generation` with `info`, confirmed by the origin at
    /// `validatedAt`, forgetting every span.
    func startGeneration(_ generation: Generation, id: Int64, info: ContentInfo, validatedAt: Date?) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM span WHERE resource_id = ?", arguments: [id])
            try db.execute(
                sql: """
                    UPDATE resource SET generation = ?, total_length = ?, mime_type = ?, accepts_ranges = ?, etag = ?,
                                        last_modified = ?, final_url = ?, validated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    generation.value, info.totalLength, info.mimeType, info.acceptsRanges, info.etag,
                    info.lastModified, info.finalURL?.absoluteString, validatedAt?.timeIntervalSince1970, id,
                ])
        }
    }

    func setValidated(at time: Date, id: Int64) throws {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE resource SET validated_at = ? WHERE id = ?",
                arguments: [time.timeIntervalSince1970, id])
        }
    }

    func setPinned(_ pinned: Bool, id: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE resource SET pinned = ? WHERE id = ?", arguments: [pinned, id])
        }
    }

    func deleteResource(id: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM resource WHERE id = ?", arguments: [id])
        }
    }

    func allKeys() throws -> [ResourceKey] {
        try pool.read { db in
            try String.fetchAll(db, sql: "SELECT key FROM resource").map(ResourceKey.init)
        }
    }

    func allResources() throws -> [Resource] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM resource ORDER BY last_access DESC, key").map(Self.resource)
        }
    }

    // MARK: Spans

    func spans(of id: Int64) throws -> ByteRangeSet {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT start, \"end\" FROM span WHERE resource_id = ? ORDER BY start",
                arguments: [id])
            return ByteRangeSet(rows.map { ByteRange($0["start"], $0["end"]) })
        }
    }

    /// Cached bytes per resource id.
    func cachedBytes() throws -> [Int64: Int64] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT resource_id, SUM(\"end\" - start) AS bytes FROM span GROUP BY resource_id")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["resource_id"], $0["bytes"]) })
        }
    }

    /// The end of the last span per resource id.
    func spanEnds() throws -> [Int64: Int64] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT resource_id, MAX(\"end\") AS last FROM span GROUP BY resource_id")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["resource_id"], $0["last"]) })
        }
    }

    /// Records spans and access times atomically. Spans of a resource whose generation has
    /// moved on are skipped; the ids of the resources whose spans were recorded are returned.
    func record(_ commit: Commit) throws -> Set<Int64> {
        try pool.write { db in
            var recorded = Set<Int64>()
            for entry in commit.spans {
                let current = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT generation FROM resource WHERE id = ?"),
                    arguments: [entry.id])
                guard current == entry.generation.value else { continue }
                for span in entry.merged {
                    try db.cachedStatement(sql: "DELETE FROM span WHERE resource_id = ? AND start BETWEEN ? AND ?")
                        .execute(arguments: [entry.id, span.lowerBound, span.upperBound])
                    try db.cachedStatement(sql: "INSERT INTO span (resource_id, start, \"end\") VALUES (?, ?, ?)")
                        .execute(arguments: [entry.id, span.lowerBound, span.upperBound])
                }
                recorded.insert(entry.id)
            }
            for (id, time) in commit.accessTimes {
                try db.cachedStatement(sql: "UPDATE resource SET last_access = max(last_access, ?) WHERE id = ?")
                    .execute(arguments: [time.timeIntervalSince1970, id])
            }
            return recorded
        }
    }

    /// Makes `spans` the resource's spans.
    func replaceSpans(of id: Int64, with spans: ByteRangeSet) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM span WHERE resource_id = ?", arguments: [id])
            for span in spans.ranges {
                try db.execute(
                    sql: "INSERT INTO span (resource_id, start, \"end\") VALUES (?, ?, ?)",
                    arguments: [id, span.lowerBound, span.upperBound])
            }
        }
    }

    /// Drops every span byte at or past `length` for the resource: the data file ends there.
    func truncateSpans(of id: Int64, to length: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM span WHERE resource_id = ? AND start >= ?", arguments: [id, length])
            try db.execute(
                sql: "UPDATE span SET \"end\" = ? WHERE resource_id = ? AND \"end\" > ?",
                arguments: [length, id, length])
        }
    }

    private static func resource(_ row: Row) -> Resource {
        Resource(
            id: row["id"],
            key: ResourceKey(row["key"]),
            url: row["url"],
            info: ContentInfo(
                totalLength: row["total_length"], mimeType: row["mime_type"],
                acceptsRanges: row["accepts_ranges"], etag: row["etag"],
                lastModified: row["last_modified"], finalURL: (row["final_url"] as String?).flatMap(URL.init)),
            generation: Generation(row["generation"]),
            isPinned: row["pinned"],
            lastAccess: Date(timeIntervalSince1970: row["last_access"]),
            validatedAt: (row["validated_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

/// Why an index cannot be read as it is.
enum StoreIndexError: Error, CustomStringConvertible {
    /// The index predates this version's schema; opening the store with write access migrates it.
    case olderSchema
    /// An asset row just written could not be read back.
    case missingAsset(ResourceKey)
    /// The row of totals the schema keeps (``StoreIndex/usage()``) is gone.
    case missingUsage
    /// The write-ahead log's shared-memory index could not be opened after the index was.
    case unreadableLogIndex(path: String)

    var description: String {
        switch self {
        case .olderSchema:
            "the cache index was written by an older version of MediaCache; open it once with write access to migrate it"
        case .missingAsset(let key):
            "the asset \(key) was recorded but cannot be read back"
        case .missingUsage:
            "the cache index has lost its row of totals (table usage); delete the cache directory to start over"
        case .unreadableLogIndex(let path):
            "the cache index's log index \(path) cannot be read"
        }
    }
}

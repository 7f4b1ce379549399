import Foundation
import GRDB

extension StoreIndex {
    /// How many bytes of the write-ahead log a checkpoint has not yet copied into the database,
    /// read from the log's shared-memory index (`-shm`), whose header is part of SQLite's file
    /// format (<https://sqlite.org/walformat.html>, "The WAL-Index Header"): the log's last
    /// valid frame (`mxFrame`, at byte 16), the frames already copied (`nBackfill`, at byte 96)
    /// and the page size (at byte 14; 1 stands for 65,536), in the host's byte order.
    ///
    /// The log's file keeps its size when SQLite starts it over after a checkpoint, so its size
    /// says nothing of what is left to copy; `0` when the index file cannot be read.
    static func uncheckpointedLogBytes(indexAt path: String) -> Int64 {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100 else { return 0 }
        func integer<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
            header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let pageSize = integer(UInt16.self, at: 14)
        let frames = Int64(integer(UInt32.self, at: 16)) - Int64(integer(UInt32.self, at: 96))
        return max(0, frames) * (pageSize == 1 ? 65_536 : Int64(pageSize))
    }

    /// The connection ``checkpointIfLarge()`` checkpoints on, beside the pool's: a passive
    /// checkpoint there copies the log into the database while the pool's writer goes on
    /// writing. `synchronous = NORMAL` as on the pool: the log is flushed before it is copied
    /// and the database after.
    static func checkpointer(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}

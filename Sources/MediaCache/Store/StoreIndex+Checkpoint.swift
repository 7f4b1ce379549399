import Foundation
import GRDB

extension StoreIndex {
    /// How every connection of the index treats its write-ahead log.
    ///
    /// WAL with `synchronous = NORMAL`: a power loss may drop the latest index transactions,
    /// which only makes the index know less. Data files are flushed before spans are recorded,
    /// so the index never knows more. A checkpoint flushes the log and the database. SQLite's
    /// own would run inside whichever write crosses its threshold, such as a miss recording its
    /// new resource; the store runs them beside the writes instead (``checkpointIfLarge()``).
    static func prepareLog(_ db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
    }

    /// The connection ``checkpointIfLarge()`` checkpoints on, beside the pool's: a passive
    /// checkpoint there copies the log into the database while the pool's writer goes on
    /// writing. With ``prepareLog(_:)``, the log is flushed before it is copied and the
    /// database after.
    static func checkpointer(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase(prepareLog)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The log's shared-memory index (`-shm`), kept open for ``uncheckpointedLogBytes(in:)``:
    /// SQLite keeps the file while a connection is open, and the index keeps two.
    static func logIndex(path: String) throws -> FileHandle {
        guard let handle = FileHandle(forReadingAtPath: path + "-shm") else {
            throw StoreIndexError.unreadableLogIndex(path: path + "-shm")
        }
        return handle
    }

    /// How many bytes of the write-ahead log a checkpoint has not yet copied into the database,
    /// read from the log's shared-memory index, whose header is part of SQLite's file format
    /// (<https://sqlite.org/walformat.html>, "The WAL-Index Header"): the log's last valid
    /// frame (`mxFrame`, at byte 16), the frames already copied (`nBackfill`, at byte 96) and
    /// the page size (at byte 14; 1 stands for 65,536), in the host's byte order.
    ///
    /// The log's file keeps its size when SQLite starts it over after a checkpoint, so its size
    /// says nothing of what is left to copy; `0` when the header cannot be read.
    static func uncheckpointedLogBytes(in logIndex: FileHandle) -> Int64 {
        var header = [UInt8](repeating: 0, count: 100)
        guard pread(logIndex.fileDescriptor, &header, header.count, 0) == header.count else { return 0 }
        func integer<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
            header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let pageSize = integer(UInt16.self, at: 14)
        let frames = Int64(integer(UInt32.self, at: 16)) - Int64(integer(UInt32.self, at: 96))
        return max(0, frames) * (pageSize == 1 ? 65_536 : Int64(pageSize))
    }
}

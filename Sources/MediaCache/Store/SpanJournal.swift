import Foundation
import Logging

/// A record, outside the index, of the spans written since the last commit, so that a
/// process killed before its next commit keeps every byte it wrote.
///
/// A byte is in the operating system's page cache the moment `pwrite` returns; what a killed
/// process loses is only the index entry for it, since the index records bytes after a flush,
/// in batches. The journal keeps that entry: one 40-byte record per write, appended without a
/// flush. It is trusted only within the boot session that wrote it: after a restart of the
/// machine (a power loss) unflushed bytes may be gone, so the journal is ignored and the
/// index, which holds only flushed bytes, is the whole truth.
///
/// Two files take turns. A commit sends new records to the other file once that file holds
/// only committed spans, and empties the file it left once the commit recorded everything, so
/// the journal stays as small as the spans awaiting a commit. Where the file system maps files
/// (``FileSystem/mapFile(at:length:)``), a record is a copy into memory shared with the page
/// cache, not a system call per chunk.
final class SpanJournal: Sendable {
    /// One write: a span of a generation of a resource.
    struct Entry: Hashable, Sendable {
        var id: Int64
        var generation: Generation
        var range: ByteRange
    }

    /// One journal file, mapped where the file system can, else written with `pwrite`.
    private enum Sink {
        case mapped(any MappedFile)
        case written(any RandomAccessFile)

        func write(_ data: Data, at offset: Int64, path: String) throws(IOError) {
            switch self {
            case .mapped(let file):
                guard offset + Int64(data.count) <= file.bytes.count else {
                    throw IOError(operation: "journal", path: path, code: ENOSPC)
                }
                // Data's own bytes, copied at once: `copyBytes(to:)` goes through `DataProtocol`'s
                // slow generic path, even for a record of a few bytes.
                let target = UnsafeMutableRawBufferPointer(rebasing: file.bytes[Int(offset)..<Int(offset) + data.count])
                data.withUnsafeBytes { target.copyMemory(from: $0) }
            case .written(let file):
                try data.withUnsafeBytes { bytes in Result { () throws(IOError) in try file.write(bytes, at: offset) } }.get()
            }
        }

        /// Forgets every record: the header stays, what follows it up to `end` is zeroed.
        func clear(from start: Int64, to end: Int64) throws(IOError) {
            switch self {
            case .mapped(let file):
                let range = Int(start)..<min(Int(end), file.bytes.count)
                if !range.isEmpty {
                    UnsafeMutableRawBufferPointer(rebasing: file.bytes[range]).initializeMemory(as: UInt8.self, repeating: 0)
                }
            case .written(let file):
                try file.truncate(to: start)
            }
        }

        func close() {
            switch self {
            case .mapped(let file): file.close()
            case .written(let file): file.close()
            }
        }
    }

    /// The size of a mapped journal file: room for 6,553 records between two commits (a commit
    /// comes every 16 MiB written).
    static let mappedLength = 256 << 10

    private struct Files {
        var handles: [Sink] = []
        var ends: [Int64] = []
        /// The file records go to.
        var current = 0
        /// Whether every record in the other file describes a committed span.
        var otherIsCommitted = true
        var hasReportedFailure = false
    }

    private let paths: [String]
    private let header: Data
    private let fileSystem: any FileSystem
    private let logger: Logger
    private let files = Locked(Files())

    /// A journal in `directory` for boot session `bootSession`; records nothing until
    /// ``start()``.
    init(directory: String, bootSession: String, fileSystem: any FileSystem, logger: Logger) {
        paths = [directory + "/written-0.journal", directory + "/written-1.journal"]
        header = Self.header(for: bootSession)
        self.fileSystem = fileSystem
        self.logger = logger
    }

    /// The records a previous process of this boot session left: spans it wrote and may not
    /// have committed. Records of another boot session, and anything after a damaged record,
    /// are ignored.
    func leftEntries() -> [Entry] {
        var entries: [Entry] = []
        for path in paths {
            guard let data = try? Self.contents(of: path, on: fileSystem), data.starts(with: header) else { continue }
            var offset = header.count
            while offset + Self.recordLength <= data.count, let entry = Self.decode(data[offset..<offset + Self.recordLength]) {
                entries.append(entry)
                offset += Self.recordLength
            }
        }
        return entries
    }

    /// Empties both files and starts recording; call once what ``leftEntries()`` returned is
    /// in the index.
    func start() throws(IOError) {
        var handles: [Sink] = []
        do throws(IOError) {
            for path in paths {
                let sink = try open(path)
                handles.append(sink)
                try sink.clear(from: 0, to: Int64(Self.mappedLength))
                try sink.write(header, at: 0, path: path)
            }
        } catch {
            handles.forEach { $0.close() }
            throw error
        }
        let length = Int64(header.count)
        files.withLock { files in
            files.handles = handles
            files.ends = [length, length]
        }
    }

    /// A mapped file where the file system can map one and reserve its blocks, else an open one.
    private func open(_ path: String) throws(IOError) -> Sink {
        do {
            if let mapped = try fileSystem.mapFile(at: path, length: Self.mappedLength) { return .mapped(mapped) }
        } catch {
            try? fileSystem.removeFile(at: path)
            logger.info("journal written without a mapping", metadata: ["error": "\(error)"])
        }
        return .written(try fileSystem.openFile(at: path))
    }

    /// Records that `entry` was written. A failure (a full disk) only costs the entry: its span
    /// waits for the next commit as it would without a journal.
    func append(_ entry: Entry) {
        let record = Self.encode(entry)
        files.withLock { files in
            guard !files.handles.isEmpty else { return }
            let end = files.ends[files.current]
            do {
                try files.handles[files.current].write(record, at: end, path: paths[files.current])
                files.ends[files.current] = end + Int64(Self.recordLength)
            } catch {
                guard !files.hasReportedFailure else { return }
                files.hasReportedFailure = true
                logger.warning("could not journal a write; it waits for the next commit", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Called as a commit starts, before it takes its snapshot of pending spans: new records
    /// go to the other file if that one holds only committed spans.
    func commitStarting() {
        files.withLock { files in
            guard !files.handles.isEmpty, files.otherIsCommitted else { return }
            files.current = 1 - files.current
            files.otherIsCommitted = false
        }
    }

    /// Called when a commit recorded every span pending at its snapshot: the file records no
    /// longer go to was left before that snapshot, so all it describes is committed now.
    func commitSucceeded() {
        files.withLock { files in
            guard !files.handles.isEmpty else { return }
            let other = 1 - files.current
            guard (try? files.handles[other].clear(from: Int64(header.count), to: files.ends[other])) != nil else { return }
            files.ends[other] = Int64(header.count)
            files.otherIsCommitted = true
        }
    }

    /// Closes both files.
    func close() {
        files.withLock { files in
            files.handles.forEach { $0.close() }
            files.handles = []
        }
    }

    // MARK: Format

    /// A record: resource id, generation, start and end of the span, and a check of the four,
    /// as little-endian 64-bit integers.
    static let recordLength = 40

    private static func header(for bootSession: String) -> Data {
        var header = Data("MCSPANS1".utf8)
        header.append(contentsOf: Array(bootSession.utf8.prefix(40)))
        header.append(Data(count: 48 - header.count))
        return header
    }

    static func encode(_ entry: Entry) -> Data {
        let fields = [entry.id, entry.generation.value, entry.range.lowerBound, entry.range.upperBound]
        var data = Data(capacity: recordLength)
        for field in fields + [check(fields)] {
            withUnsafeBytes(of: field.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func decode(_ record: Data) -> Entry? {
        let values = (0..<5).map { index in
            record.dropFirst(index * 8).prefix(8).reduce(into: UInt64(0)) { value, byte in value = value >> 8 | UInt64(byte) << 56 }
        }.map { Int64(bitPattern: $0) }
        let fields = Array(values.prefix(4))
        guard values[4] == check(fields), fields[0] > 0, fields[2] >= 0, fields[2] < fields[3] else { return nil }
        return Entry(id: fields[0], generation: Generation(fields[1]), range: ByteRange(fields[2], fields[3]))
    }

    /// FNV-1a over the fields: enough to tell a whole record from a torn or stale one.
    private static func check(_ fields: [Int64]) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in fields {
            hash = (hash ^ UInt64(bitPattern: field)) &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    private static func contents(of path: String, on fileSystem: any FileSystem) throws(IOError) -> Data? {
        guard let size = try fileSystem.sizeOfFile(at: path), size > 0 else { return nil }
        let file = try fileSystem.openFile(at: path)
        defer { file.close() }
        return try file.read(count: Int(size), at: 0)
    }
}

import Foundation
import MediaCache

/// The local file system with failures switched on and off by a test: a full disk, a failing
/// flush, an unreadable file. Failures apply to paths containing a given text. It also counts
/// the bytes read from each file, and hands out descriptors to send files only when asked to,
/// so that by default every cached byte a reader gets is read (and counted).
///
/// ```swift
/// let files = FaultyFileSystem()
/// configuration.fileSystem = files
/// files.inject(.write, code: ENOSPC, pathContaining: "/data/")   // the disk is full
/// files.healAll()
/// files.holdWrites(pathContaining: "/data/")                     // a stalled disk
/// files.releaseWrites()
/// ```
public final class FaultyFileSystem: FileSystem {
    /// The operations a fault can hit.
    public enum Operation: Hashable, Sendable {
        case open, write, read, synchronize, truncate
    }

    private struct Fault {
        var operation: Operation
        var code: Int32
        var pathFragment: String
    }

    private let base = LocalFileSystem()
    private let faults = Locked<[Fault]>([])
    private let reads = Locked<[String: Int64]>([:])
    private let gate = WriteGate()

    /// Whether its files hand out descriptors for `sendfile` (see
    /// ``RandomAccessFile/duplicateDescriptor()``); bytes sent from them are not counted.
    public let sendsFiles: Bool

    /// Creates a file system with no faults, whose files have descriptors to send when `sendsFiles`.
    public init(sendsFiles: Bool = false) {
        self.sendsFiles = sendsFiles
    }

    /// Makes `operation` fail with `code` on every path containing `pathContaining`.
    public func inject(_ operation: Operation, code: Int32, pathContaining fragment: String = "") {
        faults.withLock { $0.append(Fault(operation: operation, code: code, pathFragment: fragment)) }
    }

    /// Removes every fault.
    public func healAll() {
        faults.withLock { $0.removeAll() }
    }

    /// Makes every write to a path containing `fragment` wait, blocking its thread, until
    /// ``releaseWrites()``: a disk that stalls.
    public func holdWrites(pathContaining fragment: String) {
        gate.hold(fragment)
    }

    /// Lets held writes, and every later one, go through.
    public func releaseWrites() {
        gate.release()
    }

    /// The bytes read so far from files whose path contains `fragment`.
    public func bytesRead(pathContaining fragment: String) -> Int64 {
        reads.withLock { $0.filter { $0.key.contains(fragment) }.values.reduce(0, +) }
    }

    func waitWhileWritesAreHeld(to path: String) {
        gate.wait(for: path)
    }

    func countRead(_ count: Int, from path: String) {
        reads.withLock { $0[path, default: 0] += Int64(count) }
    }

    func check(_ operation: Operation, _ path: String) throws(IOError) {
        let code = faults.withLock { faults in
            faults.first { $0.operation == operation && path.contains($0.pathFragment) }?.code
        }
        if let code { throw IOError(operation: "\(operation)", path: path, code: code) }
    }

    public func openFile(at path: String) throws(IOError) -> any RandomAccessFile {
        try check(.open, path)
        return FaultyFile(base: try base.openFile(at: path), path: path, owner: self)
    }

    public func sizeOfFile(at path: String) throws(IOError) -> Int64? { try base.sizeOfFile(at: path) }
    public func removeFile(at path: String) throws(IOError) { try base.removeFile(at: path) }
    public func createDirectory(at path: String) throws(IOError) { try base.createDirectory(at: path) }
    public func contentsOfDirectory(at path: String) throws(IOError) -> [String] {
        try base.contentsOfDirectory(at: path)
    }
}

private final class FaultyFile: RandomAccessFile {
    let base: any RandomAccessFile
    let path: String
    let owner: FaultyFileSystem

    init(base: any RandomAccessFile, path: String, owner: FaultyFileSystem) {
        self.base = base
        self.path = path
        self.owner = owner
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(IOError) {
        owner.waitWhileWritesAreHeld(to: path)
        try owner.check(.write, path)
        try base.write(bytes, at: offset)
    }

    func read(count: Int, at offset: Int64) throws(IOError) -> Data {
        try owner.check(.read, path)
        let bytes = try base.read(count: count, at: offset)
        owner.countRead(bytes.count, from: path)
        return bytes
    }

    func synchronize() throws(IOError) {
        try owner.check(.synchronize, path)
        try base.synchronize()
    }

    func truncate(to length: Int64) throws(IOError) {
        try owner.check(.truncate, path)
        try base.truncate(to: length)
    }

    func size() throws(IOError) -> Int64 { try base.size() }
    func close() { base.close() }

    func duplicateDescriptor() throws(IOError) -> Int32? {
        owner.sendsFiles ? try base.duplicateDescriptor() : nil
    }
}

/// Where writes to held paths wait.
private final class WriteGate: @unchecked Sendable {
    // @unchecked: `fragment` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var fragment: String?

    func hold(_ fragment: String) {
        condition.withLock { self.fragment = fragment }
    }

    func release() {
        condition.withLock {
            fragment = nil
            condition.broadcast()
        }
    }

    func wait(for path: String) {
        condition.withLock {
            while let fragment, path.contains(fragment) { condition.wait() }
        }
    }
}

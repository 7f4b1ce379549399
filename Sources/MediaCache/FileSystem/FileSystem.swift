import Foundation

/// The file operations the store performs, so tests can inject failures such as a full disk.
///
/// ``LocalFileSystem`` is the real implementation. Paths are absolute.
public protocol FileSystem: Sendable {
    /// Opens the file at `path` for reading and writing, creating it empty when missing.
    func openFile(at path: String) throws(IOError) -> any RandomAccessFile
    /// The size of the file at `path`, or `nil` when there is no such file.
    func sizeOfFile(at path: String) throws(IOError) -> Int64?
    /// Removes the file at `path`; a missing file is not an error.
    func removeFile(at path: String) throws(IOError)
    /// Creates the directory at `path` and its parents when missing.
    func createDirectory(at path: String) throws(IOError)
    /// The names of the entries in the directory at `path`.
    func contentsOfDirectory(at path: String) throws(IOError) -> [String]
    /// Moves the file at `source` to `destination`, replacing what is there, on the same
    /// volume or across volumes. The default renames it, copying when the volumes differ.
    func moveFile(at source: String, to destination: String) throws(IOError)
    /// Maps the first `length` bytes of the file at `path` (created when missing, with its
    /// blocks reserved) into memory, shared with the page cache, or returns `nil` when this
    /// file system does not map files. The default returns `nil`.
    func mapFile(at path: String, length: Int) throws(IOError) -> (any MappedFile)?
}

extension FileSystem {
    public func mapFile(at path: String, length: Int) throws(IOError) -> (any MappedFile)? { nil }

    public func moveFile(at source: String, to destination: String) throws(IOError) {
        guard rename(source, destination) != 0 else { return }
        guard errno == EXDEV else { throw IOError(operation: "move", path: source, code: errno) }
        do {
            _ = try? FileManager.default.removeItem(atPath: destination)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            try FileManager.default.removeItem(atPath: source)
        } catch {
            throw IOError(operation: "move", path: source, code: EIO)
        }
    }
}

/// A file mapped into memory: a store to ``bytes`` is in the page cache at once, so it
/// survives the process (not a power loss) without a system call.
public protocol MappedFile: Sendable {
    /// The mapped bytes.
    var bytes: UnsafeMutableRawBufferPointer { get }
    /// Unmaps the file; no other call may follow.
    func close()
}

/// An open file that supports positional reads and writes from any thread.
public protocol RandomAccessFile: Sendable {
    /// Writes all of `bytes` starting at `offset`, extending the file (sparsely) as needed.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(IOError)
    /// Reads up to `count` bytes starting at `offset`; fewer only at the end of the file.
    func read(count: Int, at offset: Int64) throws(IOError) -> Data
    /// Flushes written bytes to stable storage.
    func synchronize() throws(IOError)
    /// Cuts or extends the file to `length` bytes.
    func truncate(to length: Int64) throws(IOError)
    /// The current size of the file.
    func size() throws(IOError) -> Int64
    /// Releases the file; no other call may follow.
    func close()
    /// A new descriptor of this file for its caller to close, for sending its bytes with
    /// `sendfile`; `nil` when the file has none that may be sent as it is (the default).
    func duplicateDescriptor() throws(IOError) -> Int32?
}

extension RandomAccessFile {
    public func duplicateDescriptor() throws(IOError) -> Int32? { nil }
}

/// A failed file operation, with the operating system's error number.
public struct IOError: Error, Hashable, CustomStringConvertible {
    /// What was being done, such as `"write"` or `"open"`.
    public var operation: String
    /// The file the operation was on.
    public var path: String
    /// The `errno` value reported by the system.
    public var code: Int32

    /// Creates an I/O error.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether the device or the user's quota is full.
    public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}

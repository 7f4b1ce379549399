import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, using positional POSIX I/O (`pread`/`pwrite`) so that one open
/// file serves concurrent readers and writers without a shared seek position.
public struct LocalFileSystem: FileSystem {
    /// Creates the local file system.
    public init() {}

    public func openFile(at path: String) throws(IOError) -> any RandomAccessFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw IOError(operation: "open", path: path, code: errno) }
        return DescriptorFile(descriptor: descriptor, path: path)
    }

    public func sizeOfFile(at path: String) throws(IOError) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw IOError(operation: "stat", path: path, code: errno)
        }
        return Int64(info.st_size)
    }

    public func removeFile(at path: String) throws(IOError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw IOError(operation: "unlink", path: path, code: errno)
        }
    }

    /// Creates each missing directory on the way with `mkdir`, so that a failure names the
    /// directory and the system's reason (`EACCES`, `ENOTDIR`, `EROFS`, …).
    public func createDirectory(at path: String) throws(IOError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw IOError(operation: "mkdir", path: path, code: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectory(at: parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw IOError(operation: "mkdir", path: path, code: errno)
        }
    }

    public func contentsOfDirectory(at path: String) throws(IOError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw IOError(operation: "readdir", path: path, code: Self.code(of: error))
        }
    }

    /// Reserves the file's blocks first (`posix_fallocate`): a store into a mapped page that
    /// would need a block on a full disk would end the process with `SIGBUS`.
    public func mapFile(at path: String, length: Int) throws(IOError) -> (any MappedFile)? {
        #if os(Linux)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw IOError(operation: "open", path: path, code: errno) }
        defer { _ = closeFileDescriptor(descriptor) }
        let reserved = posix_fallocate(descriptor, 0, off_t(length))
        guard reserved == 0 else { throw IOError(operation: "fallocate", path: path, code: reserved) }
        let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw IOError(operation: "mmap", path: path, code: errno) }
        return MemoryMappedFile(bytes: UnsafeMutableRawBufferPointer(start: address, count: length))
        #else
        // Darwin has no posix_fallocate; without reserved blocks a mapping is not safe.
        return nil
        #endif
    }

    private static func code(of error: any Error) -> Int32 {
        ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? EIO
    }
}

/// A mapping made by ``LocalFileSystem/mapFile(at:length:)``; its users serialize their stores.
private final class MemoryMappedFile: MappedFile, @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = bytes
    }

    func close() {
        munmap(bytes.baseAddress, bytes.count)
    }
}

/// A file descriptor opened by ``LocalFileSystem``.
private final class DescriptorFile: RandomAccessFile {
    let descriptor: Int32
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(IOError) {
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            if result < 0 {
                if errno == EINTR { continue }
                throw IOError(operation: "write", path: path, code: errno)
            }
            written += result
        }
    }

    func read(count: Int, at offset: Int64) throws(IOError) -> Data {
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { readFully(descriptor, into: $0, at: offset) }
        switch read {
        case .success(let filled):
            if filled < count { data.removeSubrange(filled..<count) }
            return data
        case .failure(let failure):
            throw IOError(operation: "read", path: path, code: failure.code)
        }
    }

    func synchronize() throws(IOError) {
        guard fsync(descriptor) == 0 else { throw IOError(operation: "fsync", path: path, code: errno) }
    }

    func truncate(to length: Int64) throws(IOError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw IOError(operation: "truncate", path: path, code: errno)
        }
    }

    func size() throws(IOError) -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw IOError(operation: "fstat", path: path, code: errno) }
        return Int64(info.st_size)
    }

    func duplicateDescriptor() throws(IOError) -> Int32? {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw IOError(operation: "dup", path: path, code: errno) }
        return copy
    }

    func close() {
        _ = closeFileDescriptor(descriptor)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes one store the owner of a cache directory: an exclusive `flock` on `lock`, which
/// records the owner's process id. The system releases it when the owner exits or crashes.
final class DirectoryLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock on `directory`, or throws ``MediaStoreError/directoryInUse(path:ownerPID:)``.
    static func acquire(directory: String) throws(MediaStoreError) -> DirectoryLock {
        let path = directory + "/lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw MediaStoreError.io(key: nil, underlying: IOError(operation: "open", path: path, code: errno))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let pid = ownerPID(descriptor)
            _ = closeFileDescriptor(descriptor)
            guard code == EWOULDBLOCK else {
                throw MediaStoreError.io(key: nil, underlying: IOError(operation: "flock", path: path, code: code))
            }
            throw MediaStoreError.directoryInUse(path: directory, ownerPID: pid)
        }
        let record = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DirectoryLock(descriptor: descriptor)
    }

    /// Checks, without taking it, that no store owns `directory`: a shared lock is tried and
    /// released at once. A directory without a lock file has no owner.
    ///
    /// - Throws: ``MediaStoreError/directoryInUse(path:ownerPID:)`` when a store owns it.
    static func checkUnowned(directory: String) throws(MediaStoreError) {
        let path = directory + "/lock"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw MediaStoreError.io(key: nil, underlying: IOError(operation: "open", path: path, code: errno))
        }
        defer { _ = closeFileDescriptor(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else {
            throw MediaStoreError.directoryInUse(path: directory, ownerPID: ownerPID(descriptor))
        }
        _ = flock(descriptor, LOCK_UN)
    }

    /// The process id the owner wrote into the lock file.
    private static func ownerPID(_ descriptor: Int32) -> Int32? {
        var owner = [UInt8](repeating: 0, count: 32)
        let count = owner.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return String(decoding: owner.prefix(max(count, 0)), as: UTF8.self).split(separator: "\n").first.flatMap { Int32($0) }
    }

    func release() {
        _ = flock(descriptor, LOCK_UN)
        _ = closeFileDescriptor(descriptor)
    }
}

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
            var owner = [UInt8](repeating: 0, count: 32)
            let count = owner.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            _ = closeFileDescriptor(descriptor)
            guard code == EWOULDBLOCK else {
                throw MediaStoreError.io(key: nil, underlying: IOError(operation: "flock", path: path, code: code))
            }
            let text = String(decoding: owner.prefix(max(count, 0)), as: UTF8.self)
            let pid = text.split(separator: "\n").first.flatMap { Int32($0) }
            throw MediaStoreError.directoryInUse(path: directory, ownerPID: pid)
        }
        let record = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DirectoryLock(descriptor: descriptor)
    }

    func release() {
        _ = flock(descriptor, LOCK_UN)
        _ = closeFileDescriptor(descriptor)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real file system of a few megabytes (a `tmpfs`), mounted for one test so that a disk can
/// really fill up: `ENOSPC` from the kernel, SQLite's `SQLITE_FULL`, everything in between.
///
/// ```swift
/// let disk = try SmallFileSystem.mount(at: directory.appending("cache"), bytes: 32 << 20)
/// defer { disk.unmount() }
/// try disk.fill(leaving: 1 << 20)     // all but a megabyte taken
/// disk.emptyFiller()                  // room again
/// ```
///
/// Mounting needs root (or `CAP_SYS_ADMIN`); ``mount(at:bytes:)`` says so when it cannot.
package struct SmallFileSystem: Sendable {
    /// Mounting failed; the reason is `mount`'s own message.
    package struct Unavailable: Error, CustomStringConvertible {
        package var reason: String

        package var description: String {
            "cannot mount a tmpfs (\(reason)); run the test command as root, as CI does"
        }
    }

    /// Where it is mounted.
    package let path: String

    /// Mounts a `tmpfs` of `bytes` at `path`, creating the directory.
    ///
    /// - Throws: ``Unavailable`` when the system refuses.
    package static func mount(at path: String, bytes: Int64) throws -> SmallFileSystem {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try CommandRun.run(path: "/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path])
        guard mounted.status == 0 else { throw Unavailable(reason: mounted.errorOutput.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return SmallFileSystem(path: path)
    }

    /// Bytes still free.
    package var available: Int64 {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return 0 }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    private var fillerPath: String { path + "/filler" }

    /// Writes a filler file until at most `free` bytes are left.
    package func fill(leaving free: Int64) throws {
        guard
            let handle = FileHandle(forWritingAtPath: fillerPath)
                ?? (FileManager.default.createFile(atPath: fillerPath, contents: nil) ? FileHandle(forWritingAtPath: fillerPath) : nil)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fillerPath]) }
        defer { try? handle.close() }
        try handle.seekToEnd()
        let block = Data(count: 64 << 10)
        while available > free {
            let count = Int(min(Int64(block.count), available - free))
            do {
                try handle.write(contentsOf: block.prefix(count))
            } catch {
                return  // full already
            }
        }
    }

    /// Deletes the filler file: the space is free again.
    package func emptyFiller() {
        try? FileManager.default.removeItem(atPath: fillerPath)
    }

    /// Unmounts it; everything on it is gone.
    package func unmount() {
        _ = try? CommandRun.run(path: "/bin/umount", ["-l", path])
    }
}

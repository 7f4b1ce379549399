import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Free space on file systems.
public enum DiskSpace {
    /// Bytes an unprivileged process may still write on the file system of `path`; `nil` when
    /// it cannot be read.
    public static func available(at path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}

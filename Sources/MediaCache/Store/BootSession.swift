import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// Names the running boot of the machine, so that the store can tell a killed process (its
/// written bytes are still in the page cache) from a reboot (unflushed bytes may be lost).
enum BootSession {
    /// An identifier that stays the same until the machine restarts, or `nil` when the
    /// platform does not say.
    static func current() -> String? {
        #if os(Linux)
        guard let id = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else { return nil }
        let trimmed = id.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
        #elseif canImport(Darwin)
        var time = timeval()
        var size = MemoryLayout<timeval>.size
        guard sysctlbyname("kern.boottime", &time, &size, nil, 0) == 0 else { return nil }
        return "boot-\(time.tv_sec).\(time.tv_usec)"
        #else
        return nil
        #endif
    }
}

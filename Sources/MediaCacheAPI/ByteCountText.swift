import Foundation

/// Byte counts as people read them, in binary units: `300 B`, `1.5 MiB`. One form for the
/// status page and the command line.
public enum ByteCountText {
    /// `count` in the largest unit that keeps the number at least 1.
    public static func string(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while abs(value) >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `1.2 MiB of 2.9 MiB`, or `1.2 MiB` while the target is unknown.
    public static func progress(_ done: Int64, of target: Int64?) -> String {
        string(done) + (target.map { " of " + string($0) } ?? "")
    }
}

import Foundation

/// The text of the W3C Extended Log File Format: directives, then one line of space-separated
/// fields per entry. Values with spaces, quotes or control characters are quoted, with inner
/// quotes doubled; a missing value is `-`; dates are `YYYY-MM-DD` and times `HH:MM:SS`, UTC.
public enum ExtendedLogFormat {
    /// `#Version`, `#Software`, `#Start-Date` at `date` and `#Fields`.
    public static func directives(fields: [String], date: Date) -> String {
        "#Version: 1.0\n#Software: MediaCache\n#Start-Date: \(stamp(date))\n#Fields: \(fields.joined(separator: " "))\n"
    }

    /// One entry: `date` and `time` from `date`, then `values`.
    public static func line(_ values: [String?], date: Date) -> String {
        line(values, stamp: stamp(date))
    }

    /// One entry: `stamp` (``stamp(_:)``, the entry's `date` and `time`), then `values`.
    static func line(_ values: [String?], stamp: String) -> String {
        var line = stamp
        line.reserveCapacity(stamp.utf8.count + values.reduce(1) { $0 + 1 + ($1?.utf8.count ?? 1) } + 8)
        for value in values {
            line.append(" ")
            line.append(field(value))
        }
        line.append("\n")
        return line
    }

    /// The `date` and `time` fields of an entry at `date`, such as `2026-11-22 10:00:01`.
    static func stamp(_ date: Date) -> String {
        let (day, time) = dateAndTime(date)
        return day + " " + time
    }

    /// A whole log: the directives (dated by the first entry, else `now`), then the entries.
    public static func text(fields: [String], entries: [(date: Date, values: [String?])], now: Date = Date()) -> String {
        entries.reduce(directives(fields: fields, date: entries.first?.date ?? now)) { $0 + line($1.values, date: $1.date) }
    }

    /// A value as the format writes it.
    public static func field(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "-" }
        let plain = value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0.value != 0x7F }
        if plain { return value }
        let cleaned = value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : String($0) }.joined()
        return "\"" + cleaned.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `duration` in seconds with three decimals, such as `0.042`.
    package static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }

    static func dateAndTime(_ date: Date) -> (String, String) {
        let parts = UTCTime(date)
        let day = "\(parts.year)-\(UTCTime.twoDigits(parts.month))-\(UTCTime.twoDigits(parts.day))"
        let time = "\(UTCTime.twoDigits(parts.hour)):\(UTCTime.twoDigits(parts.minute)):\(UTCTime.twoDigits(parts.second))"
        return (day, time)
    }
}

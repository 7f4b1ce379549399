import Foundation

/// The text of the W3C Extended Log File Format: directives, then one line of space-separated
/// fields per entry. Values with spaces, quotes or control characters are quoted, with inner
/// quotes doubled; a missing value is `-`; dates are `YYYY-MM-DD` and times `HH:MM:SS`, UTC.
public enum ExtendedLogFormat {
    /// `#Version`, `#Software`, `#Start-Date` at `date` and `#Fields`.
    public static func directives(fields: [String], date: Date) -> String {
        let (day, time) = dateAndTime(date)
        return "#Version: 1.0\n#Software: MediaCache\n#Start-Date: \(day) \(time)\n#Fields: \(fields.joined(separator: " "))\n"
    }

    /// One entry: `date` and `time` from `date`, then `values`.
    public static func line(_ values: [String?], date: Date) -> String {
        let (day, time) = dateAndTime(date)
        return ([day, time] + values.map(field)).joined(separator: " ") + "\n"
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

    static func dateAndTime(_ date: Date) -> (String, String) {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let time = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return (day, time)
    }
}

import Foundation

/// A duration such as `90s`, `30m`, `12h` or `7d`, checked against the range an age limit can
/// use: 1 second to 100 years.
///
/// ```swift
/// let maxAge = try AgeText.parse("30d", field: "--max-age")   // .seconds(2_592_000)
/// ```
public enum AgeText {
    /// The ages accepted, in seconds: 1 s to 36 500 days.
    public static let range: ClosedRange<Int64> = 1...(36_500 * 86_400)
    static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
    /// What ``parse(_:field:)`` accepts, for messages.
    public static let accepted = "a duration from 1s to 36500d: a whole number with one of the units s, m, h, d, such as 90s, 12h or 7d"

    /// Parses `text`.
    ///
    /// - Throws: ``InputError`` naming `field` when `text` is not a duration or lies outside
    ///   ``range``.
    public static func parse(_ text: String, field: String) throws(InputError) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unit = trimmed.last.flatMap({ units[$0] }),
            let count = Int64(trimmed.dropLast())
        else {
            throw InputError(field: field, value: text, accepted: accepted)
        }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, range.contains(seconds) else { throw InputError(field: field, value: text, accepted: accepted) }
        return .seconds(seconds)
    }
}

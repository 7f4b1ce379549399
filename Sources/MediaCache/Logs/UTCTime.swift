import Foundation

/// The calendar fields of an instant in UTC, from `gmtime_r`: what log lines and `Date`
/// headers print, without a `Calendar` per line.
package struct UTCTime {
    package var year: Int
    /// 1 to 12.
    package var month: Int
    package var day: Int
    /// 0 (Sunday) to 6.
    package var weekday: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    package init(_ date: Date) {
        self.init(seconds: time_t(date.timeIntervalSince1970.rounded(.down)))
    }

    package init(seconds: time_t) {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        weekday = Int(parts.tm_wday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
    }

    /// `value` with a leading zero below 10.
    package static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

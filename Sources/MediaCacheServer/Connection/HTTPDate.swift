import Foundation
import MediaCache

/// The `Date` header's value (RFC 9110 IMF-fixdate), formatted once per second.
final class HTTPDate: Sendable {
    private let cached = Locked<(second: time_t, text: String)>((-1, ""))

    /// The current time as an HTTP date.
    var now: String {
        let seconds = time(nil)
        return cached.withLock { cached in
            if cached.second != seconds { cached = (seconds, Self.format(UTCTime(seconds: seconds))) }
            return cached.text
        }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ time: UTCTime) -> String {
        "\(days[time.weekday]), \(UTCTime.twoDigits(time.day)) \(months[time.month - 1]) \(time.year) "
            + "\(UTCTime.twoDigits(time.hour)):\(UTCTime.twoDigits(time.minute)):\(UTCTime.twoDigits(time.second)) GMT"
    }
}

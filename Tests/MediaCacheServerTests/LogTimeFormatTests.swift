import Foundation
@testable import MediaCache
import Testing
@testable import MediaCacheServer

/// The times the proxy writes: `Date` headers and the access log's date, time and seconds taken.
@Suite(.timeLimit(.minutes(2))) struct LogTimeFormatTests {
    @Test func theDateHeaderIsAnIMFFixdate() {
        // RFC 9110's own example.
        #expect(HTTPDate.format(UTCTime(seconds: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate().now.hasSuffix(" GMT"))
    }

    @Test func logDatesAndTimesArePaddedUTC() {
        let (day, time) = ExtendedLogFormat.dateAndTime(Date(timeIntervalSince1970: 1_788_400_804.9))
        #expect(day == "2026-09-03" && time == "02:00:04")
    }

    @Test(arguments: [
        (Duration.milliseconds(42), "0.042"), (.zero, "0.000"), (.seconds(3) + .microseconds(999_600), "4.000"),
        (.seconds(12) + .milliseconds(5), "12.005"), (.microseconds(1_499), "0.001"),
    ])
    func secondsTakenHaveThreeDecimals(_ duration: Duration, _ text: String) {
        #expect(ExtendedLogFormat.seconds(duration) == text)
    }
}

import ArgumentParser
import Foundation
import MediaCache

/// Parsers for the numbers options take, through the core's checked parsers: a value out of
/// range is refused with the accepted range (exit 64), never converted into a trap.
enum CheckedOptions {
    static func port(_ text: String) throws -> Int {
        try refusing { () throws(InputError) in try CheckedNumber.integer(text, in: 0...65_535, field: "--port", what: "a port") }
    }

    static func size(_ field: String) -> @Sendable (String) throws -> ByteSize {
        { text in try refusing { () throws(InputError) in try ByteSize(parsing: text, field: field) } }
    }

    static func age(_ text: String) throws -> Duration {
        try refusing { () throws(InputError) in try AgeText.parse(text, field: "--max-age") }
    }

    static func priority(_ text: String) throws -> Int {
        try refusing { () throws(InputError) in
            try CheckedNumber.integer(text, in: Preloader.priorityRange, field: "--priority", what: "a priority")
        }
    }

    static func bandwidth(_ text: String) throws -> Int {
        try refusing { () throws(InputError) in
            try CheckedNumber.integer(text, in: 1...2_000_000_000_000, field: "--bandwidth", what: "bits per second")
        }
    }

    static func preloadSeconds(_ text: String) throws -> Double {
        try seconds(text, field: "--seconds", in: 0...PreloadAmount.maximumSeconds, excludingLower: true)
    }

    static func gracePeriod(_ text: String) throws -> Double {
        try seconds(text, field: "--shutdown-grace", in: 0...3_600, excludingLower: false)
    }

    static func connections(_ text: String) throws -> Int {
        try refusing { () throws(InputError) in
            try CheckedNumber.integer(text, in: 1...1_000_000, field: "--max-connections", what: "a number of connections")
        }
    }

    /// A connection timeout in seconds, above 0 up to a day.
    static func timeout(_ field: String) -> @Sendable (String) throws -> Double {
        { text in try seconds(text, field: field, in: 0...86_400, excludingLower: true) }
    }

    static func liveOutage(_ text: String) throws -> Int {
        try refusing { () throws(InputError) in
            try CheckedNumber.integer(text, in: 1...1_000, field: "--live-outage", what: "a number of target durations")
        }
    }

    static func playlistAge(_ text: String) throws -> Double {
        try seconds(text, field: "--playlist-max-age", in: 0...86_400, excludingLower: false)
    }

    private static func seconds(_ text: String, field: String, in range: ClosedRange<Double>, excludingLower: Bool) throws -> Double {
        try refusing { () throws(InputError) in
            let value = Double(text.trimmingCharacters(in: .whitespaces)) ?? .nan
            return try CheckedNumber.seconds(value, in: range, excludingLower: excludingLower, field: field)
        }
    }

    /// The parser's result, or a ``ValidationError`` with what is accepted, which the argument
    /// parser prints after the option and value it names itself.
    private static func refusing<Value>(_ parse: () throws(InputError) -> Value) throws -> Value {
        do {
            return try parse()
        } catch {
            throw ValidationError(error.reason)
        }
    }
}

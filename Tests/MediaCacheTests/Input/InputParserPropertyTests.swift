import Foundation
import PropertyBased
import Testing
@testable import MediaCache

/// Every parser of a number a person or a request gives either refuses it with an
/// ``InputError`` or returns a value inside its documented range: extreme, malformed and
/// random inputs never trap.
@Suite(.timeLimit(.minutes(2))) struct InputParserPropertyTests {
    /// Digit runs long enough to overflow any integer, with an optional fraction.
    static var number: Generator<String, some Sequence & SendableMetatype> {
        zip(Gen.number.string(of: 1...30), Gen.bool, Gen.number.string(of: 1...4)).map { whole, hasFraction, fraction in
            hasFraction ? whole + "." + fraction : whole
        }
    }

    static let sizeUnits = ["", "B", "K", "KB", "KiB", "M", "MiB", "g", "G", "T", "TiB", "P", "Q", "E"]
    static let ageUnits = ["s", "m", "h", "d", "", "w", "S"]

    @Test func sizesAreRefusedOrInRangeAndExact() async {
        await propertyCheck(count: 2_000, input: Self.number, Gen.int(in: 0...(Self.sizeUnits.count - 1))) { number, unit in
            let text = number + Self.sizeUnits[unit]
            do throws(InputError) {
                let size = try ByteSize(parsing: text, field: "--max-size")
                #expect(ByteSize.range.contains(size.bytes), "\(text) -> \(size.bytes)")
                if !number.contains("."), let whole = Int64(number) {
                    let multiplier =
                        ByteSize.units.first { String($0.suffix) == Self.sizeUnits[unit].prefix(1).uppercased() }?.multiplier ?? 1
                    #expect(size.bytes == whole * multiplier, "\(text)")
                }
            } catch {
                #expect(error.field == "--max-size")
                #expect(error.description.contains("1 PiB"))
            }
        }
    }

    @Test(
        arguments: [
            ("99999999999T", nil), ("9999999999G", nil), ("9223372036854775807", nil), ("9223372036854775808", nil), ("8E", nil),
            ("1e18", nil), ("-1", nil), ("0", nil), ("0.0001K", nil), ("", nil), ("G", nil), ("NaN", nil), ("inf", nil),
            ("1e400M", nil), ("1.0000001P", nil), ("--5", nil), ("1.5", 1), ("1P", 1 << 50), ("1.5G", 3 << 29), ("512kib", 512 << 10),
        ] as [(String, Int64?)])
    func extremeSizesAreRefusedWithTheRange(_ text: String, _ expected: Int64?) {
        do throws(InputError) {
            let size = try ByteSize(parsing: text, field: "--bytes")
            #expect(size.bytes == expected, "\(text) was accepted as \(size.bytes)")
        } catch {
            #expect(expected == nil, "\(text) was refused: \(error)")
            #expect(error.accepted == ByteSize.accepted)
        }
    }

    @Test func agesAreRefusedOrInRangeAndExact() async throws {
        await propertyCheck(count: 2_000, input: Gen.number.string(of: 1...25), Gen.int(in: 0...(Self.ageUnits.count - 1))) {
            digits, unit in
            let text = digits + Self.ageUnits[unit]
            do throws(InputError) {
                let age = try AgeText.parse(text, field: "--max-age")
                let seconds = age.components.seconds
                #expect(AgeText.range.contains(seconds))
                #expect(seconds == Int64(digits)! * AgeText.units[Character(Self.ageUnits[unit])]!)
            } catch {
                #expect(error.field == "--max-age")
            }
        }
        #expect(throws: InputError.self) { try AgeText.parse("99999999999999999d", field: "--max-age") }
        #expect(try AgeText.parse("36500d", field: "--max-age") == .seconds(36_500 * 86_400))
    }

    @Test func secondsAndAmountsAreRefusedOrValid() async {
        let extremes: [Double] = [
            .nan, .infinity, -.infinity, 1e18, 1e308, -1, 0, -0.0, .ulpOfOne, 86_400, 86_400.000_1, .greatestFiniteMagnitude,
        ]
        await propertyCheck(count: 2_000, input: Gen.double(in: -1e300...1e300), Gen.int(in: 0...(extremes.count - 1)), Gen.bool) {
            random, pick, useExtreme in
            let seconds = useExtreme ? extremes[pick] : random
            let amount = PreloadAmount.seconds(seconds)
            do throws(InputError) {
                _ = try amount.checked()
                #expect(seconds > 0 && seconds <= PreloadAmount.maximumSeconds)
                #expect(amount.isValid)
            } catch {
                #expect(error.field == "seconds")
                #expect(!amount.isValid)
            }
        }
        await propertyCheck(count: 2_000, input: Gen.int64()) { count in
            #expect(PreloadAmount.bytes(count).isValid == ByteSize.range.contains(count))
        }
    }

    @Test func integersAreRefusedOrInRange() async {
        await propertyCheck(count: 1_000, input: Self.number, Gen.bool) { number, negative in
            let text = (negative ? "-" : "") + number
            if let port = try? CheckedNumber.integer(text, in: 0...65_535, field: "--port", what: "a port") {
                #expect((0...65_535).contains(port))
            }
            if let priority = try? CheckedNumber.integer(text, in: Preloader.priorityRange, field: "--priority", what: "a priority") {
                #expect(Preloader.priorityRange.contains(priority))
            }
        }
        #expect(throws: InputError(field: "--port", value: "99999", accepted: "a port from 0 to 65535")) {
            try CheckedNumber.integer("99999", in: 0...65_535, field: "--port", what: "a port")
        }
    }

    @Test func derivedQuantitiesSaturateInsteadOfTrapping() async {
        await propertyCheck(count: 1_000, input: Gen.double(in: -1e300...1e300)) { value in
            let converted = Int64(saturating: value)
            if abs(value) < 9e18 { #expect(converted == Int64(value)) } else { #expect(converted == (value > 0 ? .max : .min)) }
        }
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: .infinity) == .max)
    }
}

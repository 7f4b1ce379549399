import Foundation

/// A value given by a person or a request that MediaCache does not accept: a size, a duration,
/// an amount or a number outside the range it can work with, or text that is not one at all.
///
/// Every number that reaches MediaCache from a command line or a request is parsed through one
/// of the checked parsers (``ByteSize``, ``AgeText``, ``CheckedNumber``,
/// ``PreloadAmount/checked()``), so that no input can overflow an integer or trap.
///
/// ```swift
/// do {
///     let size = try ByteSize(parsing: "99999999999T", field: "--max-size")
/// } catch {
///     print(error)   // --max-size: 99999999999T is not accepted; give a size from 1 B to 1 PiB …
/// }
/// ```
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The option or JSON field the value was given for, such as `--max-size` or `seconds`.
    public var field: String
    /// The value as it was given.
    public var value: String
    /// What is accepted, such as `a size from 1 B to 1 PiB …`.
    public var accepted: String

    /// Creates an error for `value` given as `field`.
    public init(field: String, value: String, accepted: String) {
        self.field = field
        self.value = value
        self.accepted = accepted
    }

    /// What is accepted, without the field: the form a command-line parser shows after its own
    /// `The value '…' is invalid for '--option'`.
    public var reason: String { "give \(accepted)" }

    public var description: String {
        "\(field): \(value.isEmpty ? "an empty value" : value) is not accepted; \(reason)"
    }
}

/// Whole numbers checked against a closed range.
public enum CheckedNumber {
    /// `text` as an integer within `range`.
    ///
    /// - Throws: ``InputError`` naming `field` and the range when `text` is not a whole number
    ///   or lies outside `range`.
    public static func integer<Value: FixedWidthInteger>(
        _ text: String, in range: ClosedRange<Value>, field: String, what: String
    ) throws(InputError) -> Value {
        guard let value = Value(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw InputError(field: field, value: text, accepted: "\(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `value` when it is finite and within `range`.
    ///
    /// - Throws: ``InputError`` naming `field` and the range otherwise.
    public static func seconds(
        _ value: Double, in range: ClosedRange<Double>, excludingLower: Bool,
        field: String
    ) throws(InputError) -> Double {
        let inside = value.isFinite && range.contains(value) && !(excludingLower && value == range.lowerBound)
        guard inside else {
            let lower = excludingLower ? "above \(Self.text(range.lowerBound))" : "from \(Self.text(range.lowerBound))"
            throw InputError(
                field: field, value: Self.text(value), accepted: "a number of seconds \(lower) up to \(Self.text(range.upperBound))")
        }
        return value
    }

    /// `12`, `0.5`, `1e+18`: a number as a person reads it.
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}

extension Int64 {
    /// `value` rounded toward zero and clamped to `Int64`'s range (NaN is 0), for arithmetic on
    /// derived quantities that must never trap.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = .max
        } else if value <= -9.2e18 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}

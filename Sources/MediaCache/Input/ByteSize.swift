import Foundation

/// A size such as `500M`, `2G`, `1.5GiB` or `1048576`, in binary units, checked against the
/// range a cache can use: 1 byte to 1 PiB.
///
/// ```swift
/// let limit = try ByteSize(parsing: "2G", field: "--max-size").bytes   // 2_147_483_648
/// ```
public struct ByteSize: Hashable, Sendable, CustomStringConvertible {
    /// The sizes accepted: 1 B to 1 PiB.
    public static let range: ClosedRange<Int64> = 1...(1 << 50)
    /// The units, with their multipliers; `B`, `KB`/`KiB` and so on mean the same.
    static let units: [(suffix: Character, multiplier: Int64)] =
        [("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40), ("P", 1 << 50)]
    /// What ``init(parsing:field:)`` accepts, for messages.
    public static let accepted =
        "a size from 1 B to 1 PiB: a whole number of bytes, or a number with one of the units "
        + "K, M, G, T, P (binary; KiB, MB and the like mean the same), such as 500M or 1.5G"

    /// The number of bytes.
    public let bytes: Int64

    /// One gibibyte: the store's default size limit.
    public static let gibibyte = ByteSize(unchecked: 1 << 30)

    private init(unchecked bytes: Int64) {
        self.bytes = bytes
    }

    /// Parses `text`.
    ///
    /// - Throws: ``InputError`` naming `field` when `text` is not a size or lies outside ``range``.
    public init(parsing text: String, field: String) throws(InputError) {
        let refusal = InputError(field: field, value: text, accepted: Self.accepted)
        var number = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        for suffix in ["IB", "B"] where number.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            break
        }
        var multiplier: Int64 = 1
        if let last = number.last, let unit = Self.units.first(where: { $0.suffix == last }) {
            multiplier = unit.multiplier
            number = number.dropLast()
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { throw refusal }
        if let whole = Int64(number) {
            let (product, overflow) = whole.multipliedReportingOverflow(by: multiplier)
            guard !overflow, Self.range.contains(product) else { throw refusal }
            bytes = product
        } else if let fraction = Double(number), fraction.isFinite {
            let product = fraction * Double(multiplier)
            guard product >= 1, product <= Double(Self.range.upperBound) else { throw refusal }
            bytes = Int64(product)
        } else {
            throw refusal
        }
    }

    /// `1G`, `512M` or `1000`: the shortest exact form.
    public var description: String {
        for unit in Self.units.reversed() where bytes % unit.multiplier == 0 {
            return "\(bytes / unit.multiplier)\(unit.suffix)"
        }
        return "\(bytes)"
    }
}

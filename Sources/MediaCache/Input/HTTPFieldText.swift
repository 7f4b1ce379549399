/// HTTP field names and values read as the protocol spells them: ASCII, with optional
/// whitespace of spaces and tabs (RFC 9110 §5.6.3), names compared without case.
///
/// Every proxied request and every origin response reads several fields. Foundation's
/// Unicode-aware trimming and case folding cost tens of microseconds per request on the path
/// to a miss's first byte, for text that is ASCII by definition. The functions are inlinable
/// so that other modules' callers get them specialized for their `String` or `Substring`
/// rather than run generically, through protocol witnesses.
///
/// ```swift
/// HTTPFieldText.trimmed("  bytes=0-99 ")                  // "bytes=0-99"
/// HTTPFieldText.equalsIgnoringCase("content-range", "Content-Range")   // true
/// HTTPFieldText.decimal("1024")                           // 1024
/// HTTPFieldText.decimal("+1024")                          // nil
/// ```
public enum HTTPFieldText {
    /// `value` without spaces and horizontal tabs at either end.
    @inlinable
    public static func trimmed<Text: StringProtocol>(_ value: Text) -> Text.SubSequence {
        let bytes = value.utf8
        guard let start = bytes.firstIndex(where: { !isWhitespace($0) }) else { return value[value.endIndex...] }
        var end = start
        var index = start
        while index < bytes.endIndex {
            let next = bytes.index(after: index)
            if !isWhitespace(bytes[index]) { end = next }
            index = next
        }
        return value[start..<end]
    }

    /// Whether `text` and `other` are the same ignoring the case of ASCII letters, as field
    /// names and tokens such as `bytes` compare.
    @inlinable
    public static func equalsIgnoringCase(_ text: some StringProtocol, _ other: some StringProtocol) -> Bool {
        text.utf8.count == other.utf8.count && hasPrefixIgnoringCase(text, other)
    }

    /// Whether `text` starts with `prefix`, ignoring the case of ASCII letters.
    @inlinable
    public static func hasPrefixIgnoringCase(_ text: some StringProtocol, _ prefix: some StringProtocol) -> Bool {
        var bytes = text.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), lowercased(byte) == lowercased(expected) else { return false }
        }
        return true
    }

    /// Whether `text` contains `part` anywhere, ignoring the case of ASCII letters.
    @inlinable
    public static func containsIgnoringCase(_ text: some StringProtocol, _ part: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        let wanted = Array(part.utf8)
        guard wanted.count <= bytes.count else { return false }
        return (0...(bytes.count - wanted.count)).contains { start in
            zip(bytes[start...], wanted).allSatisfy { lowercased($0) == lowercased($1) }
        }
    }

    /// The number `text` spells in ASCII decimal digits; `nil` when it is empty, holds
    /// anything else (a sign, a space) or is beyond `Int64.max`.
    @inlinable
    public static func decimal(_ text: some StringProtocol) -> Int64? {
        guard !text.utf8.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
        }
        return value
    }

    @usableFromInline
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    @usableFromInline
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

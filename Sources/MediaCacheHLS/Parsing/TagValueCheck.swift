/// Checks of the values of tags that are not attribute lists: the numbers a player computes
/// with must be numbers.
enum TagValueCheck {
    /// What is wrong with `value` for the tag `name`, or `nil` when it is well formed (or the
    /// tag is not checked).
    static func problem(name: String, value: String) -> String? {
        switch name {
        case "EXTINF":
            let duration = value[..<(value.firstIndex(of: ",") ?? value.endIndex)]
            return isDecimal(duration) ? nil : "'\(duration)' is not a duration in seconds"
        case "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE", "EXT-X-VERSION", "EXT-X-BITRATE":
            return isInteger(value[...]) ? nil : "'\(value)' is not a whole number"
        case "EXT-X-BYTERANGE":
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count <= 2 && parts.allSatisfy(isInteger) ? nil : "'\(value)' is not a byte range (length[@offset])"
        case "EXT-X-PLAYLIST-TYPE":
            return value == "VOD" || value == "EVENT" ? nil : "'\(value)' is neither VOD nor EVENT"
        default:
            return nil
        }
    }

    /// 1 to 20 digits: a decimal-integer (RFC 8216 §4.2).
    static func isInteger(_ text: Substring) -> Bool {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy(isDigit)
    }

    /// Digits with at most one point, and at least one digit: a decimal-floating-point.
    static func isDecimal(_ text: Substring) -> Bool {
        var points = 0
        var digits = 0
        for byte in text.utf8 {
            if isDigit(byte) { digits += 1 } else if byte == UInt8(ascii: ".") { points += 1 } else { return false }
        }
        return digits > 0 && points <= 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

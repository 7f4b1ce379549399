/// Checks of the values of tags that are not attribute lists: the numbers a player computes
/// with must be numbers.
enum TagValueCheck {
    /// What is wrong with `value` for the tag `name`, or `nil` when it is well formed (or the
    /// tag is not checked).
    static func problem(name: String, value: String) -> String? {
        switch name {
        case "EXTINF":
            let duration = value.prefix { $0 != "," }
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
        (1...20).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Digits with at most one point: a decimal-floating-point.
    static func isDecimal(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return !text.isEmpty && text != "." && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
            && parts.contains { !$0.isEmpty }
    }
}

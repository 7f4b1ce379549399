import MediaCache
import Testing

@Suite(.timeLimit(.minutes(2))) struct HTTPFieldTextTests {
    @Test func trimmingTakesSpacesAndTabsOnlyFromBothEnds() {
        #expect(HTTPFieldText.trimmed(" \tbytes=0-99 \t ") == "bytes=0-99")
        #expect(HTTPFieldText.trimmed("a b") == "a b")
        #expect(HTTPFieldText.trimmed("   ") == "")
        #expect(HTTPFieldText.trimmed("") == "")
        // Not optional whitespace (RFC 9110 §5.6.3): kept, so the value stays what was sent.
        #expect(HTTPFieldText.trimmed("\u{00A0}5\r\n") == "\u{00A0}5\r\n")
        #expect(HTTPFieldText.trimmed(" é ") == "é")
    }

    @Test func namesAndTokensCompareWithoutTheCaseOfASCIILetters() {
        #expect(HTTPFieldText.equalsIgnoringCase("content-range", "Content-Range"))
        #expect(HTTPFieldText.equalsIgnoringCase("ETAG", "ETag"))
        #expect(!HTTPFieldText.equalsIgnoringCase("Content-Range", "Content-Rang"))
        #expect(!HTTPFieldText.equalsIgnoringCase("Content-Rangé", "Content-RangÉ"))
        #expect(HTTPFieldText.hasPrefixIgnoringCase("BYTES=0-1", "bytes="))
        #expect(!HTTPFieldText.hasPrefixIgnoringCase("byte", "bytes="))
        #expect(HTTPFieldText.containsIgnoringCase("none, Bytes", "bytes"))
        #expect(HTTPFieldText.containsIgnoringCase("bytes", "bytes"))
        #expect(!HTTPFieldText.containsIgnoringCase("none", "bytes"))
        #expect(!HTTPFieldText.containsIgnoringCase("byt", "bytes"))
    }

    @Test func decimalsAreASCIIDigitsWithinInt64() {
        #expect(HTTPFieldText.decimal("0") == 0)
        #expect(HTTPFieldText.decimal("0090") == 90)
        #expect(HTTPFieldText.decimal("9223372036854775807") == .max)
        for refused in ["", "+1", "-1", " 1", "1 ", "1.5", "9223372036854775808", "99999999999999999999", "١٢"] {
            #expect(HTTPFieldText.decimal(refused) == nil, "\(refused)")
        }
    }
}

import MediaCache
import MediaCacheServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct RangeResponsePlanTests {
    let info = ContentInfo(totalLength: 1000, etag: "\"v1\"", lastModified: "Mon, 02 Nov 2026 10:00:00 GMT")

    func plan(_ range: String?, ifRange: String? = nil, info: ContentInfo? = nil) -> RangeResponsePlan {
        RangeResponsePlan(range: range, ifRange: ifRange, info: info ?? self.info)
    }

    @Test(
        arguments: [
            ("bytes=0-99", 0, 99), ("bytes=900-", 900, 999), ("bytes=-100", 900, 999), ("bytes=-5000", 0, 999),
            ("bytes=990-2000", 990, 999), ("BYTES= 10 - 19 ", 10, 19), ("bytes=999-999", 999, 999),
        ] as [(String, Int64, Int64)])
    func theThreeRangeFormsGetExactPartialContent(_ range: String, _ first: Int64, _ last: Int64) {
        let answer = plan(range)
        #expect(answer.status == 206)
        // A range to the last byte is read open-ended (paced), a suffix or an earlier end exactly.
        let toTheEnd = !range.contains("=-") && last == 999
        #expect(answer.bytes == (toTheEnd ? ByteRequest(offset: first) : ByteRequest(offset: first, length: last - first + 1)))
        #expect(answer.contentRange == "bytes \(first)-\(last)/1000")
        #expect(answer.contentLength == last - first + 1)
    }

    @Test func unsatisfiableRangesGet416WithTheLength() {
        for range in ["bytes=1000-", "bytes=5000-6000", "bytes=-0", "bytes=9223372036854775806-9223372036854775807"] {
            let answer = plan(range)
            #expect(answer.status == 416, "\(range)")
            #expect(answer.contentRange == "bytes */1000", "\(range)")
            #expect(answer.bytes == nil, "\(range)")
        }
    }

    /// Found by fuzzing (`Fuzz/regressions/range`): a suffix range of an empty resource was
    /// answered `206` with `Content-Range: bytes 0--1/0`. RFC 9110 §14.1.2: no range of an
    /// empty representation is satisfiable.
    @Test func everyRangeOfAnEmptyResourceGets416() {
        let empty = ContentInfo(totalLength: 0)
        for range in ["bytes=-500", "bytes=-1", "bytes=0-", "bytes=0-0"] {
            let answer = plan(range, info: empty)
            #expect(answer.status == 416, "\(range)")
            #expect(answer.contentRange == "bytes */0", "\(range)")
            #expect(answer.bytes == nil, "\(range)")
        }
    }

    @Test func multipleMalformedOrForeignRangesGetTheWholeBody() {
        for range in [
            "bytes=0-1,5-6", "bytes=5-1", "items=0-1", "bytes=a-b", "bytes=", "bytes=--1",
            "bytes=99999999999999999999-", "bytes=-99999999999999999999", "bytes=0-99999999999999999999", nil,
        ] as [String?] {
            let answer = plan(range)
            #expect(answer.status == 200, "\(range ?? "none")")
            // Only a request without a Range header said it takes the whole body.
            #expect(answer.bytes == ByteRequest(offset: 0, takesAll: range == nil), "\(range ?? "none")")
            #expect(answer.contentLength == 1000, "\(range ?? "none")")
            #expect(answer.contentRange == nil, "\(range ?? "none")")
        }
    }

    @Test func ifRangeIsHonouredWithStrongComparison() {
        #expect(plan("bytes=0-9", ifRange: "\"v1\"").status == 206)
        #expect(plan("bytes=0-9", ifRange: "Mon, 02 Nov 2026 10:00:00 GMT").status == 206)
        #expect(plan("bytes=0-9", ifRange: "\"v0\"").status == 200)
        #expect(plan("bytes=0-9", ifRange: "W/\"v1\"").status == 200)
        #expect(plan("bytes=0-9", ifRange: "Tue, 03 Nov 2026 10:00:00 GMT").status == 200)
    }

    @Test func anUnknownLengthIgnoresRangeAndStreamsTheWholeBody() {
        let answer = plan("bytes=100-199", info: ContentInfo())
        #expect(answer.status == 200)
        #expect(answer.contentLength == nil)
        #expect(answer.bytes == ByteRequest(offset: 0))
    }
}

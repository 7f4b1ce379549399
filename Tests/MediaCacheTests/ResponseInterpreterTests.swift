import Foundation
import MediaCache
import Testing

@Suite(.timeLimit(.minutes(2))) struct ResponseInterpreterTests {
    let url = URL(string: "https://cdn.test/a.mp4")!

    func interpret(_ status: Int, _ headers: [(String, String)], request: OriginRequest? = nil) throws -> (OriginResponse.Kind, ContentInfo)
    {
        try ResponseInterpreter(request: request ?? OriginRequest(url: url, bytes: ByteRequest(offset: 100, end: 200)))
            .interpret(status: status, headers: headers)
    }

    @Test func partialContentTakesOffsetAndLengthFromContentRange() throws {
        let (kind, info) = try interpret(
            206,
            [
                ("content-range", "bytes 100-199/5000"), ("CONTENT-TYPE", "video/mp4"), ("etag", "\"x\""),
            ])
        #expect(kind == .partial(offset: 100, length: 100))
        #expect(info.totalLength == 5000)
        #expect(info.acceptsRanges)
        #expect(info.mimeType == "video/mp4")
        #expect(info.etag == "\"x\"")
    }

    @Test func anUnknownTotalIsNotAGuess() throws {
        let (kind, info) = try interpret(206, [("Content-Range", "bytes 0-99/*"), ("Content-Length", "100")])
        #expect(kind == .partial(offset: 0, length: 100))
        #expect(info.totalLength == nil)
    }

    @Test func fullContentInAnswerToARangeMeansRangesAreIgnored() throws {
        let (kind, info) = try interpret(200, [("Content-Length", "5000"), ("Accept-Ranges", "bytes")])
        #expect(kind == .full)
        #expect(info.totalLength == 5000)
        #expect(!info.acceptsRanges)
    }

    @Test func aHeadAnswerUsesAcceptRangesAndNeverRecordsZero() throws {
        let head = OriginRequest(url: url, method: .head)
        let (_, info) = try interpret(200, [("Content-Length", "5000"), ("accept-ranges", "bytes")], request: head)
        #expect(info.acceptsRanges)
        let (_, empty) = try interpret(200, [("Content-Length", "0")], request: head)
        #expect(empty.totalLength == nil)
    }

    @Test func namesAndTheBytesTokenMatchInAnyCaseAndOnlyDigitsAreALength() throws {
        let head = OriginRequest(url: url, method: .head)
        let (_, info) = try interpret(
            200,
            [
                ("CONTENT-LENGTH", " 5000 "), ("Accept-Ranges", "Bytes"),
                ("content-type", " video/mp4\t"),
            ], request: head)
        #expect(info.totalLength == 5000)
        #expect(info.acceptsRanges)
        #expect(info.mimeType == "video/mp4")
        for length in ["+5000", "5000.0", "0x1388", "5 000"] {
            let (_, signed) = try interpret(200, [("Content-Length", length)], request: head)
            #expect(signed.totalLength == nil, "\(length)")
        }
        let (kind, _) = try interpret(206, [("content-range", "BYTES 100-199/5000")])
        #expect(kind == .partial(offset: 100, length: 100))
        #expect(throws: OriginError.self) { try interpret(206, [("Content-Range", "bytes +100-199/5000")]) }
    }

    @Test func unsatisfiableTakesTheLengthFromContentRange() throws {
        let (kind, info) = try interpret(416, [("Content-Range", "bytes */5000")])
        #expect(kind == .rangeNotSatisfiable)
        #expect(info.totalLength == 5000)
    }

    @Test func errorStatusesAndBrokenContentRangesAreErrors() {
        #expect(throws: OriginError.status(404, url: url)) { try interpret(404, []) }
        for broken in ["bytes 100-99/5000", "bytes 100-6000/5000", "items 1-2/3", "bytes abc", ""] {
            #expect(throws: OriginError.self, "\(broken)") { try interpret(206, [("Content-Range", broken)]) }
        }
    }

    /// Found by fuzzing (`Fuzz/regressions/response`): a last byte of 2^63 − 1 with an unknown
    /// total made the length overflow, and a hostile origin could crash the app with one header.
    @Test func aRangeEndingAtTheLargestOffsetIsAnErrorNotACrash() {
        for huge in ["bytes 0-9223372036854775807/*", "bytes 5-9223372036854775807/*"] {
            #expect(throws: OriginError.self, "\(huge)") { try interpret(206, [("Content-Range", huge)]) }
        }
        #expect(
            (try? interpret(206, [("Content-Range", "bytes 0-9223372036854775806/*")]))?.0
                == .partial(offset: 0, length: .max))
    }

    /// Found by fuzzing (`Fuzz/regressions/response`): `416` with `bytes */-100` was read as a
    /// total length of −100, which the loader would have recorded as the resource's length.
    @Test func aNegativeTotalIsNoLength() throws {
        let (kind, info) = try interpret(416, [("Content-Range", "bytes */-100")])
        #expect(kind == .rangeNotSatisfiable)
        #expect(info.totalLength == nil)
        #expect(throws: OriginError.self) { try interpret(206, [("Content-Range", "bytes 0-1/-5")]) }
    }

    @Test func theRangeHeaderIsInclusive() {
        #expect(OriginRequest(url: url, bytes: ByteRequest(offset: 0, length: 2)).rangeHeader == "bytes=0-1")
        #expect(OriginRequest(url: url, bytes: ByteRequest(offset: 10)).rangeHeader == "bytes=10-")
        #expect(OriginRequest(url: url).rangeHeader == nil)
    }
}

import Foundation
import MediaCacheTesting
import Testing

/// RFC 9110 range answers as curl, a real client, sees them.
@Suite(.timeLimit(.minutes(2))) struct CurlRangeTests {
    static let length: Int64 = 100_000

    struct Case: CustomTestStringConvertible, Sendable {
        var range: String
        var status: Int
        /// The bytes expected, `nil` for none.
        var bytes: Range<Int64>?
        var contentRange: String?
        var testDescription: String { "Range: \(range)" }
    }

    @Test(arguments: [
        Case(range: "bytes=0-0", status: 206, bytes: 0..<1, contentRange: "bytes 0-0/100000"),
        Case(range: "bytes=-1", status: 206, bytes: 99_999..<100_000, contentRange: "bytes 99999-99999/100000"),
        Case(range: "bytes=99999-", status: 206, bytes: 99_999..<100_000, contentRange: "bytes 99999-99999/100000"),
        Case(range: "bytes=50000-99999999", status: 206, bytes: 50_000..<100_000, contentRange: "bytes 50000-99999/100000"),
        Case(range: "bytes=-200000", status: 206, bytes: 0..<100_000, contentRange: "bytes 0-99999/100000"),
        Case(range: "bytes=100000-", status: 416, bytes: nil, contentRange: "bytes */100000"),
        Case(range: "bytes=5-2", status: 200, bytes: 0..<100_000, contentRange: nil),
        Case(range: "bytes=0-1,5-6", status: 200, bytes: 0..<100_000, contentRange: nil),
        Case(range: "items=0-5", status: 200, bytes: 0..<100_000, contentRange: nil),
    ])
    func rangeEdgeCases(_ test: Case) async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 41)
            proxy.origin.serve("/a.mp4", content: content)
            let answer = try await curl(proxy, ["-H", "Range: \(test.range)", proxy.proxied("/a.mp4")], in: proxy.directory)
            #expect(answer.status == test.status)
            #expect(answer.headers["content-range"] == test.contentRange)
            if let bytes = test.bytes {
                #expect(Bytes(answer.body) == Bytes(content.bytes(in: bytes)))
                #expect(answer.headers["content-length"] == "\(bytes.count)")
            }
        }
    }

    @Test func headAndIfRange() async throws {
        try await ProxyHarness.run { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 42)
            proxy.origin.serve("/a.mp4", content: content)
            let head = try await curl(proxy, ["-I", proxy.proxied("/a.mp4")], in: proxy.directory)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "100000")
            #expect(head.headers["accept-ranges"] == "bytes")
            #expect(head.headers["content-type"] == "video/mp4")
            #expect(head.headers["etag"] == content.etag)
            // With -I curl writes the head to the output file; no body byte may follow it.
            #expect(String(decoding: head.body, as: UTF8.self).hasSuffix("\r\n\r\n"))

            let matching = try await curl(
                proxy,
                [
                    "-H", "Range: bytes=10-19", "-H", "If-Range: \(content.etag)",
                    proxy.proxied("/a.mp4"),
                ], in: proxy.directory)
            #expect(matching.status == 206)
            #expect(Bytes(matching.body) == Bytes(content.bytes(in: 10..<20)))
            let stale = try await curl(
                proxy,
                [
                    "-H", "Range: bytes=10-19", "-H", "If-Range: \"other\"",
                    proxy.proxied("/a.mp4"),
                ], in: proxy.directory)
            #expect(stale.status == 200)
            #expect(stale.body.count == 100_000)
        }
    }

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    func curl(_ proxy: ProxyHarness, _ arguments: [String], in directory: TemporaryDirectory) async throws -> Answer {
        let name = UUID().uuidString
        let (headerFile, bodyFile) = (directory.appending("\(name).headers"), directory.appending("\(name).body"))
        let run = try await CommandRun.run(
            path: try Tools.require("curl"),
            ["-s", "-D", headerFile, "-o", bodyFile] + arguments)
        #expect(run.status == 0, "curl: \(run.errorOutput)")
        let lines = String(decoding: FileManager.default.contents(atPath: headerFile) ?? Data(), as: UTF8.self)
            .components(separatedBy: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: FileManager.default.contents(atPath: bodyFile) ?? Data())
    }
}

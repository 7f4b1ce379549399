import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MediaCache
import MediaCacheTesting
import NIOCore
import NIOEmbedded
import Testing
@testable import MediaCacheServer

/// The access and error logs in the W3C Extended Log File Format.
@Suite(.timeLimit(.minutes(2))) struct ProxyLogTests {
    /// The entries of a log: each line split into fields, quoted values kept whole.
    static func entries(_ text: String) -> [[String]] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            var fields: [String] = []
            var current = ""
            var quoted = false
            for character in line {
                switch character {
                case "\"": quoted.toggle()
                case " " where !quoted:
                    fields.append(current)
                    current = ""
                default: current.append(character)
                }
            }
            return fields + [current]
        }
    }

    @Test func everyResponseIsLoggedWithItsSourcesAndErrorsApart() async throws {
        let token = "log-test-token"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let access = directory.appending("access.log")
        let errors = directory.appending("error.log")
        try await ProxyHarness.run(configure: {
            $0.token = token
            $0.accessLog = access
            $0.errorLog = errors
        }) { proxy in
            proxy.origin.serve("/a.mp4", content: .pattern(length: 100_000, seed: 5))
            _ = try await proxy.request(proxy.proxied("/a.mp4", token: token))
            _ = try await proxy.request(proxy.proxied("/a.mp4", token: token))
            _ = try await proxy.request(proxy.proxied("/missing.mp4", token: token))
            _ = try await proxy.request(proxy.proxied("/a.mp4"))
        }
        let accessText = try String(contentsOfFile: access, encoding: .utf8)
        let lines = accessText.split(separator: "\n")
        #expect(
            lines.prefix(4).map { $0.split(separator: ":").first.map(String.init) }
                == ["#Version", "#Software", "#Start-Date", "#Fields"])
        #expect(lines[3] == "#Fields: " + ProxyLogFields.access.joined(separator: " "))
        let logged = Self.entries(accessText)
        #expect(logged.count == 4 && logged.allSatisfy { $0.count == ProxyLogFields.access.count })
        // date time c-ip cs-method cs-uri sc-status sc-bytes x-cache-bytes x-origin-bytes time-taken
        #expect(logged[0][2] == "127.0.0.1" && logged[0][3] == "GET")
        #expect(logged[0][4].hasPrefix("/t/-/http/127.0.0.1:") && !accessText.contains(token), "the token is redacted")
        #expect(Array(logged[0][5...8]) == ["200", "100000", "0", "100000"], "cold: all from the origin")
        #expect(Array(logged[1][5...8]) == ["200", "100000", "100000", "0"], "warm: all from the cache")
        #expect(logged[2][5] == "404" && logged[3][5] == "401")
        #expect(logged.allSatisfy { Double($0[9]) != nil })

        let errorText = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(errorText.contains("#Fields: " + ProxyLogFields.error.joined(separator: " ")))
        let failures = Self.entries(errorText)
        #expect(failures.map { $0[5] } == ["404", "401"])
        #expect(failures.first?.last == "origin answered 404")
    }

    @Test func aBodyTheOriginCannotCompleteIsAnErrorWithItsReason() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let errors = directory.appending("error.log")
        try await ProxyHarness.run(configure: { $0.errorLog = errors }) { proxy in
            proxy.origin.serve("/long.mp4", content: .pattern(length: 4 << 20, seed: 6))
            proxy.origin.setMisbehavior(.init(bytesPerSecond: 1 << 20), for: "/long.mp4")
            let reading = Task { try await proxy.request(proxy.proxied("/long.mp4")) }
            await proxy.origin.sent(256 << 10, of: "/long.mp4")
            try await proxy.origin.stop()
            let answer = try await reading.value
            #expect(answer.body.count < 4 << 20)
        }
        let failures = Self.entries(try String(contentsOfFile: errors, encoding: .utf8))
        #expect(failures.count == 1)
        #expect(failures.first?[5] == "200")
        #expect(failures.first?.last?.contains("/long.mp4 failed") == true, "\(failures)")
    }

    /// The client may have read an error response and hung up before the server has finished
    /// it; the error is still the server's answer, and keeps its line.
    @Test func anErrorResponseKeepsItsLineWhenTheClientHangsUpBeforeItsEnd() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let errors = try ExtendedLogFile(path: directory.appending("error.log"), fields: ProxyLogFields.error)
        let logging = LoggingResponder(log: ProxyLog(access: nil, errors: errors), inner: ForbiddingResponder())
        let channel = EmbeddedChannel()
        let context = ProxyRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: Logger(label: "test")))
        let request = Request(
            head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/t/secret/a.mp4"),
            body: RequestBody(buffer: ByteBuffer()))
        let response = try await logging.respond(to: request, context: context)
        await #expect(throws: ChannelError.ioOnClosedChannel) { try await response.body.write(HangingUpWriter()) }
        errors.close()

        let failures = Self.entries(try String(contentsOfFile: errors.path, encoding: .utf8))
        #expect(failures.map { Array($0[3...]) } == [["GET", "/t/-/a.mp4", "403", "not for you"]])
    }

    /// Entries of the same second share their stamp; the next second's entry has its own.
    @Test func eachEntryIsStampedWithItsOwnSecond() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let log = try ExtendedLogFile(path: directory.appending("access.log"), fields: ["c-ip", "cs-uri"], now: start)
        for (offset, uri) in [(0.2, "/a"), (0.9, "/b with space"), (1.0, "/c"), (61.5, "/d")] {
            log.append(["127.0.0.1", uri], at: start.addingTimeInterval(offset))
        }
        log.close()
        let lines = try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            lines == [
                "2026-11-18 11:06:40 127.0.0.1 /a", #"2026-11-18 11:06:40 127.0.0.1 "/b with space""#,
                "2026-11-18 11:06:41 127.0.0.1 /c", "2026-11-18 11:07:41 127.0.0.1 /d",
            ])
    }

    @Test func valuesWithSpacesOrQuotesAreQuoted() {
        #expect(ExtendedLogFormat.field(nil) == "-")
        #expect(ExtendedLogFormat.field("plain") == "plain")
        #expect(ExtendedLogFormat.field(#"say "hi" now"#) == #""say ""hi"" now""#)
        #expect(ExtendedLogFormat.field("line\nbreak") == #""line break""#)
    }
}

/// Answers every request `403` with a line of text.
private struct ForbiddingResponder: HTTPResponder {
    func respond(to request: Request, context: ProxyRequestContext) async throws -> Response {
        Response.text(.forbidden, "not for you")
    }
}

/// A connection whose client has gone once the body has been written: finishing it fails.
private struct HangingUpWriter: ResponseBodyWriter {
    func write(_ buffer: ByteBuffer) async throws {}

    func finish(_ trailingHeaders: HTTPFields?) async throws {
        throw ChannelError.ioOnClosedChannel
    }
}

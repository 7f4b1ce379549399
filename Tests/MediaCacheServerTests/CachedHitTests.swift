import Foundation
import MediaCache
import MediaCacheTesting
import NIOCore
import NIOHTTP1
import Testing
@testable import MediaCacheServer

/// A hit (``ResourceAnswer/hit(_:plan:range:)``) is answered at once from the connection's
/// event loop where the store can send files, and by the responders where it cannot: both
/// execute the same decision, and give the same answer, log lines and statistics.
@Suite(.timeLimit(.minutes(2))) struct CachedHitTests {
    static let length = 300_000

    /// The same requests, against a proxy whose store has descriptors to send (hits answered
    /// at once) and one whose store has none (every answer from the Hummingbird responders):
    /// the same statuses, headers and bodies, the same log lines and statistics. For a media
    /// file, and for a file of a generic type whose path names none (its first line tells).
    @Test(arguments: [("/a.mp4", "video/mp4"), ("/objects/9f2c", "application/octet-stream")])
    func aHitAnsweredAtOnceIsTheAnswerOfTheOtherPath(path: String, mimeType: String) async throws {
        let content = TestOrigin.Content.pattern(length: Int64(Self.length), seed: 31, mimeType: mimeType)
        let requests: [[(String, String)]] = [
            [], [("Range", "bytes=1000-1999")], [("Range", "bytes=-500")], [("Range", "bytes=299990-")],
            [("Range", "bytes=0-9"), ("If-Range", "\"stale\"")], [("Range", "bytes=5-4")], [("Connection", "close")],
        ]
        var answers: [[(status: Int, headers: [String: String], body: Data)]] = []
        var lines: [[[String]]] = []
        var served: [Int64] = []
        for sendsFiles in [true, false] {
            let logs = try TemporaryDirectory()
            defer { logs.remove() }
            let access = logs.appending("access.log")
            try await ProxyHarness.run(
                configure: { $0.accessLog = access },
                storing: { $0.fileSystem = FaultyFileSystem(sendsFiles: sendsFiles) }
            ) { proxy in
                proxy.origin.serve(path, content: content)
                _ = try await proxy.request(proxy.proxied(path))
                let before = proxy.loader.statistics.bytesFromCache
                var these: [(status: Int, headers: [String: String], body: Data)] = []
                for headers in requests {
                    var answer = try await proxy.request(proxy.proxied(path), headers: headers)
                    answer.headers["date"] = nil
                    these.append((answer.status, answer.headers, answer.body))
                }
                answers.append(these)
                served.append(proxy.loader.statistics.bytesFromCache - before)
            }
            // The method, status and byte counts are the same; the date, time, time taken and
            // the origin's port in the target are not.
            lines.append(ProxyLogTests.entries(try String(contentsOfFile: access, encoding: .utf8)).map { [$0[3]] + $0[5...8] })
        }
        for (index, (once, other)) in zip(answers[0], answers[1]).enumerated() {
            #expect(once.status == other.status, "request \(index)")
            #expect(once.headers == other.headers, "request \(index)")
            #expect(once.body == other.body, "request \(index)")
        }
        #expect(answers[0][1].body == content.bytes(in: 1000..<2000))
        #expect(lines[0] == lines[1])
        #expect(served[0] == served[1] && served[0] > 0)
    }
}

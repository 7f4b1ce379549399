import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheHTTP
import MediaCacheTesting
import NIOCore
import Testing
@testable import MediaCacheServer

/// Bytes the store cannot keep (a full disk) are answered from the origin uncached, with the
/// statuses and headers a cached answer would have, and the error log says so. The real full
/// disk is `DiskFullTests`; here the file system refuses writes on demand.
@Suite(.timeLimit(.minutes(2))) struct UncachedRelayTests {
    static let length: Int64 = 3 << 20

    @Test func aResponseWhoseBytesCannotBeStoredContinuesFromTheOrigin() async throws {
        let files = FaultyFileSystem()
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await ProxyHarness.run(
            configure: {
                $0.accessLog = logs.appending("access.log")
                $0.errorLog = logs.appending("error.log")
            }, storing: { $0.fileSystem = files }
        ) { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 7)
            proxy.origin.serve("/a.mp4", content: content)
            let expected = content.bytes(in: 0..<Self.length)
            let cached = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=0-999999")])
            #expect(cached.status == 206)

            files.inject(.write, code: ENOSPC, pathContaining: "/data/")
            let whole = try await proxy.request(proxy.proxied("/a.mp4"))
            #expect(whole.status == 200 && whole.body == expected)
            let tail = try await proxy.request(proxy.proxied("/a.mp4"), headers: [("Range", "bytes=2000000-2999999")])
            #expect(tail.status == 206 && tail.body == expected[2_000_000..<3_000_000])
            #expect(tail.headers["content-range"] == "bytes 2000000-2999999/\(Self.length)")
            let key = proxy.store.key(for: proxy.origin.url("/a.mp4"))
            #expect(try proxy.store.availableRanges(for: key).ranges == [ByteRange(0, 1_000_000)])

            // Room again: the next read stores what it fetches.
            files.healAll()
            #expect(try await proxy.request(proxy.proxied("/a.mp4")).body == expected)
            #expect(try proxy.store.availableRanges(for: key).ranges == [ByteRange(0, Self.length)])
        }
        let errors = ProxyLogTests.entries(try String(contentsOfFile: logs.appending("error.log"), encoding: .utf8))
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0[6].contains("disk full") && $0[6].contains("from the origin without caching") })
        let access = ProxyLogTests.entries(try String(contentsOfFile: logs.appending("access.log"), encoding: .utf8))
        // The whole read: the cached megabyte from the cache, the rest from the origin.
        #expect(Array(access[1][5...8]) == ["200", "\(Self.length)", "1000000", "\(Self.length - 1_000_000)"])
    }

    @Test func aRequestNothingCanBeStoredForIsRelayedWhole() async throws {
        let files = FaultyFileSystem()
        try await ProxyHarness.run(storing: { $0.fileSystem = files }) { proxy in
            let content = TestOrigin.Content.pattern(length: Self.length, seed: 8)
            proxy.origin.serve("/b.mp4", content: content)
            files.inject(.write, code: ENOSPC, pathContaining: "/data/")
            let part = try await proxy.request(proxy.proxied("/b.mp4"), headers: [("Range", "bytes=100-199")])
            #expect(part.status == 206 && part.body == content.bytes(in: 100..<200))
            #expect(part.headers["content-range"] == "bytes 100-199/\(Self.length)")
            #expect(part.headers["content-type"] == "video/mp4" && part.headers["etag"] != nil)
            let whole = try await proxy.request(proxy.proxied("/b.mp4"))
            #expect(whole.status == 200 && whole.body == content.bytes(in: 0..<Self.length))
            #expect(whole.headers["content-length"] == "\(Self.length)")
            let past = try await proxy.request(proxy.proxied("/b.mp4"), headers: [("Range", "bytes=\(Self.length)-")])
            #expect(past.status == 416)
        }
    }

    /// A full disk, or any other failure of the store (here an I/O error).
    @Test(arguments: [ENOSPC, EIO]) func aPlaylistThatCannotBeStoredIsStillRewritten(code: Int32) async throws {
        let files = FaultyFileSystem()
        try await ProxyHarness.run(storing: { $0.fileSystem = files }) { proxy in
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n"
            proxy.origin.serve("/v/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            files.inject(.write, code: code, pathContaining: "/data/")
            let answer = try await proxy.request(proxy.proxied("/v/index.m3u8"))
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("/http/127.0.0.1:\(proxy.origin.port)/v/seg0.ts"))
        }
    }

    /// The rest of a body comes from the version the cached part is of, or not at all: the
    /// client gets a short response, never bytes of two versions.
    @Test func theRestOfABodyOfAChangedResourceIsRefused() async throws {
        let origin = try await TestOrigin.start()
        let upstream = HTTPOrigin()
        let content = TestOrigin.Content.pattern(length: Self.length, seed: 9)
        origin.serve("/c.mp4", content: content)
        let relay = UncachedRelay(origin: upstream, url: origin.url("/c.mp4"), tally: ResponseTally())

        var writer = CollectingWriter()
        try await relay.continueBody(from: 1000, to: 5000, validator: content.etag, into: &writer)
        #expect(writer.bytes == content.bytes(in: 1000..<5000))

        origin.changeContent(of: "/c.mp4")
        var changed = CollectingWriter()
        await #expect(throws: LoaderError.self) {
            try await relay.continueBody(from: 1000, to: nil, validator: content.etag, into: &changed)
        }
        #expect(changed.bytes.isEmpty)
        try await upstream.shutdown()
        try await origin.stop()
    }

    /// An origin that ignores ranges answers the rest of a body from byte 0 with the whole
    /// body: that is the rest when its validator is the one asked for, and only then.
    @Test func fromByteZeroAWholeBodyOfTheSameVersionIsTheRest() async throws {
        let origin = try await TestOrigin.start()
        let upstream = HTTPOrigin()
        let content = TestOrigin.Content.pattern(length: Self.length, seed: 10)
        origin.serve("/d.mp4", content: content)
        origin.setMisbehavior(.init(ignoresRange: true), for: "/d.mp4")
        let relay = UncachedRelay(origin: upstream, url: origin.url("/d.mp4"), tally: ResponseTally())

        var whole = CollectingWriter()
        await #expect(throws: Never.self) {
            try await relay.continueBody(from: 0, to: 5000, validator: content.etag, into: &whole)
        }
        #expect(whole.bytes == content.bytes(in: 0..<5000))

        var later = CollectingWriter()
        await #expect(throws: LoaderError.self) {
            try await relay.continueBody(from: 1000, to: 5000, validator: content.etag, into: &later)
        }
        origin.changeContent(of: "/d.mp4")
        var changed = CollectingWriter()
        await #expect(throws: LoaderError.self) {
            try await relay.continueBody(from: 0, to: nil, validator: content.etag, into: &changed)
        }
        #expect(later.bytes.isEmpty && changed.bytes.isEmpty)
        try await upstream.shutdown()
        try await origin.stop()
    }

    /// An origin that answers `200` with an empty chunked body: the store keeps no empty
    /// resource, so the response comes from the origin and ends as a whole (empty) body, not a
    /// broken one or an error, whether the body ends before the proxy's head has left (the
    /// race of the first request) or after it (the origin holds the body of the second).
    @Test func anEmptyBodyOfUnknownLengthIsAnsweredWholeFromTheOrigin() async throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        try await ProxyHarness.run(configure: { $0.errorLog = logs.appending("error.log") }) { proxy in
            proxy.origin.serve("/empty.mp4", content: .data(Data()))
            for holdsBody in [false, true] {
                proxy.origin.setMisbehavior(.init(ignoresRange: true, chunked: true, holdsBodies: holdsBody), for: "/empty.mp4")
                var request = HTTPClientRequest(url: proxy.proxied("/empty.mp4"))
                request.headers.add(name: "Range", value: "bytes=0-")
                let response = try await proxy.client.execute(request, timeout: .seconds(30))
                #expect(response.status == .ok)
                proxy.origin.releaseBodies(of: "/empty.mp4")
                // A body cut short (no last chunk) throws here.
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(body.readableBytes == 0)
            }
            #expect(proxy.origin.requests(for: "/empty.mp4").count == 4)
        }
        let errors = ProxyLogTests.entries(try String(contentsOfFile: logs.appending("error.log"), encoding: .utf8))
        #expect(errors.count == 2 && errors.allSatisfy { $0[6].contains("from the origin without caching") }, "\(errors)")
    }
}

/// A response body writer that keeps what it is given: what is around the relay under test.
private struct CollectingWriter: ResponseBodyWriter {
    var bytes = Data()

    mutating func write(_ buffer: ByteBuffer) async throws {
        bytes.append(contentsOf: buffer.readableBytesView)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

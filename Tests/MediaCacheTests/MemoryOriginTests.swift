import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// The in-memory origin: a loader reads through it with no socket, and it answers, records
/// and misbehaves as the loopback test origin does.
@Suite(.timeLimit(.minutes(2))) struct MemoryOriginTests {
    @Test func aLoaderReadsExactBytesOnceAndAgainFromTheCache() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try MediaStore.open(at: directory.path)
        defer { try? store.close() }
        let origin = MemoryOrigin()
        let content = TestOrigin.Content.pattern(length: 300_000, seed: 5)
        origin.serve("/a.mp4", content: content)
        origin.setMisbehavior(TestOrigin.Misbehavior(chunked: true, dropsAfter: 100_000), for: "/a.mp4")
        let loader = MediaLoader(store: store, origin: origin)
        for _ in 0..<2 {
            var bytes = Data()
            for try await chunk in loader.read(origin.url("/a.mp4"), ByteRequest(offset: 1_000, length: 250_000)) {
                bytes.append(chunk.bytes)
            }
            #expect(bytes == content.bytes(in: 1_000..<251_000))
        }
        #expect(
            origin.bytesSent(for: "/a.mp4") >= 250_000 && origin.bytesSent(for: "/a.mp4") < 300_000 + 100_000,
            "a dropped body is resumed, and the second read costs nothing")
        #expect(origin.requests(for: "/a.mp4").count >= 3, "the body was cut twice at least")
    }

    @Test func redirectsAndErrorStatusesAreAnsweredAsOverHTTP() async throws {
        let origin = MemoryOrigin()
        origin.serve("/b.mp4", content: .pattern(length: 1_000, seed: 6))
        origin.redirect("/old.mp4", to: "/b.mp4")
        let moved = try await origin.fetch(OriginRequest(url: origin.url("/old.mp4"), bytes: ByteRequest(offset: 10, end: 20)))
        #expect(moved.kind == .partial(offset: 10, length: 10))
        #expect(moved.info.finalURL == origin.url("/b.mp4") && moved.info.totalLength == 1_000)
        await #expect(throws: OriginError.status(404, url: origin.url("/none.mp4"))) {
            _ = try await origin.fetch(OriginRequest(url: origin.url("/none.mp4")))
        }
    }
}

import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// A loader whose fetches were stopped, as an engine stops them before its origin shuts down.
@Suite(.timeLimit(.minutes(1))) struct LoaderStopTests {
    @Test func stoppedFetchesEndTheirReadersAndNoOtherStarts() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/slow.bin", length: 4_000_000, misbehavior: .init(bytesPerSecond: 400_000))
            let url = harness.origin.url("/slow.bin")
            let (firstChunk, firstChunkArrives) = AsyncStream.makeStream(of: Void.self)
            let reading = Task {
                do {
                    for try await _ in harness.loader.read(url, ByteRequest(offset: 0)) { firstChunkArrives.yield() }
                    return "ended"
                } catch {
                    return "\(error)"
                }
            }
            var arrived = firstChunk.makeAsyncIterator()
            _ = await arrived.next()
            await harness.loader.stopFetches()
            #expect(await reading.value == "\(LoaderError.cancelled)")
            let requests = harness.origin.requests(for: "/slow.bin").count
            await #expect(throws: LoaderError.self) {
                for try await _ in harness.loader.read(url, ByteRequest(offset: 3_000_000)) {}
            }
            #expect(harness.origin.requests(for: "/slow.bin").count == requests, "a reader after the stop starts no fetch")
        }
    }
}

import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// When a miss's fetch asks, waits and hands its record over: before the store creates the
/// resource, paced to the readers' lead, and drained after its readers left.
@Suite(.timeLimit(.minutes(2))) struct MissTimingTests {
    /// A miss's record reaches its reader from the origin's answer before the store creates the
    /// resource: the index insert waits for the body's first chunk, and the reader (a server
    /// answering the head) goes on meanwhile. The store's record then says the same.
    @Test func aMissesRecordComesBeforeTheStoreCreatesTheResource() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.mp4", length: 100_000, misbehavior: .init(holdsBodies: true))
            let url = harness.origin.url("/a.mp4")
            let key = harness.store.key(for: url)
            var read = harness.loader.read(url, ByteRequest(offset: 0)).makeAsyncIterator()
            let announced = try await read.record()
            #expect(announced.contentInfo.totalLength == 100_000 && announced.contentInfo.etag == content.etag)
            #expect(announced.available.isEmpty)
            #expect(try harness.store.record(for: key) == nil, "created once the body's first chunk is in")

            harness.origin.releaseBodies(of: "/a.mp4")
            var bytes = Data()
            while let chunk = try await read.next() { bytes.append(chunk.bytes) }
            #expect(Bytes(bytes) == Bytes(content.bytes(in: 0..<100_000)))
            let stored = try #require(try harness.store.record(for: key))
            #expect(stored.contentInfo == announced.contentInfo && stored.generation == announced.generation)
            #expect(stored.isComplete)
        }
    }

    /// A miss's announced record gives its length before the store holds it: a fetch that
    /// paces its next request meanwhile asks for nothing past the end. Here a short read joins
    /// while the body is held; in a server, the playlist check's read of a miss's first bytes
    /// moved while the fetch created the resource, and three small misses in a hundred cost an
    /// origin request answered `416`.
    @Test func aFetchPacedBeforeTheStoreCreatesTheResourceAsksNothingPastItsEnd() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/small.bin", length: 1_000, misbehavior: .init(holdsBodies: true))
            let url = harness.origin.url("/small.bin")
            var whole = harness.loader.read(url, ByteRequest(offset: 0, takesAll: true)).makeAsyncIterator()
            _ = try await whole.record()
            let short = Task {
                var bytes = Data()
                for try await chunk in harness.loader.read(url, ByteRequest(offset: 500, length: 7)) { bytes.append(chunk.bytes) }
                return bytes
            }
            // A fetch that paces past the end would ask as soon as the short read joins it: it is
            // given a second to do so.
            for _ in 0..<100 where harness.origin.requests(for: "/small.bin").count < 2 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(try harness.store.record(for: harness.store.key(for: url)) == nil, "the resource is still only announced")

            harness.origin.releaseBodies(of: "/small.bin")
            var bytes = Data()
            while let chunk = try await whole.next() { bytes.append(chunk.bytes) }
            #expect(Bytes(bytes) == Bytes(content.bytes(in: 0..<1_000)))
            #expect(Bytes(try await short.value) == Bytes(content.bytes(in: 500..<507)))
            _ = try await harness.origin.settledBytesSent(for: "/small.bin")
            let ranges = harness.origin.requests(for: "/small.bin").map { $0.range ?? "-" }
            #expect(ranges.count == 1, "\(ranges)")
        }
    }

    /// A fetch whose request reached the end of the resource while its next request is still on
    /// its way waits for that request quietly. It used to watch its readers again and again,
    /// each watch over at once, on the event loop that had to read that very request's answer:
    /// the loop served nothing else until a drain timeout cancelled the fetch, a second's stall
    /// for every connection on it.
    @Test(.timeLimit(.minutes(1))) func aFetchThatReachedTheEndWaitsQuietlyForItsLastRequest() async throws {
        try await EngineFixture.run(loading: { $0.drainTimeout = .seconds(3600) }) { harness in
            // Without a length, the fetch asks past the end before it knows where the end is.
            // Each answer comes five seconds after its request and the body takes four, so that
            // the answer past the end comes after the first body ended, and a short read that a
            // busy machine starts late still joins while that body arrives.
            let content = harness.serve(
                "/open.bin", length: 1_000,
                misbehavior: .init(chunked: true, bytesPerSecond: 250, firstByteDelay: .seconds(5)))
            let url = harness.origin.url("/open.bin")
            let (firstBytes, firstBytesArrive) = AsyncStream.makeStream(of: Void.self)
            let whole = Task {
                var read = harness.loader.read(url, ByteRequest(offset: 0, takesAll: true)).makeAsyncIterator()
                var bytes = Data()
                while bytes.count < 1_000, let chunk = try await read.next() {
                    bytes.append(chunk.bytes)
                    firstBytesArrive.yield()
                }
                // The first request has ended; the reader leaves before the second one's answer.
                try await Task.sleep(for: .milliseconds(300))
                read.cancel()
                return bytes
            }
            // While the first body arrives, a short read further on joins the fetch, which then
            // asks for more.
            var firstBytesArrived = firstBytes.makeAsyncIterator()
            _ = await firstBytesArrived.next()
            let short = try await harness.read("/open.bin", ByteRequest(offset: 990, length: 7))
            #expect(Bytes(short.bytes) == Bytes(content.bytes(in: 990..<997)))
            #expect(Bytes(try await whole.value) == Bytes(content.bytes(in: 0..<1_000)))
            let ranges = harness.origin.requests(for: "/open.bin").map { $0.range ?? "-" }
            #expect(ranges.count == 2, "a second request past the end is the case under test: \(ranges)")

            // The fetch waits for its last answer: the loop that reads it serves others meanwhile.
            let other = harness.serve("/other.bin", length: 1_000)
            let next = try await harness.read("/other.bin", ByteRequest(offset: 0))
            #expect(Bytes(next.bytes) == Bytes(other.bytes(in: 0..<1_000)))
        }
    }

    @Test(.timeLimit(.minutes(1))) func aProbesTwoCachedBytesDoNotDelayTheGapAfterThem() async throws {
        // An hour: a reader that waited it would fail the time limit.
        try await EngineFixture.run(loading: { $0.gapDelayAfterCache = .seconds(3600) }) { harness in
            let content = harness.serve("/a.mp4", length: 300_000)
            _ = try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4"))
            let read = try await harness.read("/a.mp4", ByteRequest(offset: 0, length: 200_000))
            #expect(Bytes(read.bytes) == Bytes(content.bytes(in: 0..<200_000)))
            #expect(read.sources[.cache] == 2)
        }
    }

    @Test func readersWaitingOnSlowRoundTripsDoubleTheLead() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/a.mp4", length: 8 << 20, misbehavior: .init(firstByteDelay: .milliseconds(30)))
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 0), stoppingAfter: 2 << 20)
            _ = try await harness.origin.settledBytesSent(for: "/a.mp4")
            let sizes = harness.origin.requests(for: "/a.mp4").compactMap { request -> Int64? in
                guard let range = request.range?.dropFirst(6).split(separator: "-"), range.count == 2,
                    let first = Int64(range[0]), let last = Int64(range[1])
                else { return nil }
                return last - first + 1
            }
            // Grown by consumption alone, the lead after 2 MiB would still be the initial one.
            let initial = MediaLoader.Configuration().initialReadahead
            #expect((sizes.max() ?? 0) >= 4 * initial, "requests of \(sizes) on a 30 ms origin")
        }
    }

    @Test func aReaderThatComesBackForDrainingBytesWaitsOnTheirFetch() async throws {
        try await EngineFixture.run { harness in
            let path = "/a.mp4"
            let content = harness.serve(path, length: 4_000_000, misbehavior: .init(bytesPerSecond: 2_000_000))
            _ = try await harness.read(path, ByteRequest(offset: 0), stoppingAfter: 100_000)
            // At once, while the first fetch is still receiving what it asked for.
            let again = try await harness.read(path, ByteRequest(offset: 0, length: 400_000))
            #expect(Bytes(again.bytes) == Bytes(content.bytes(in: 0..<400_000)))
            _ = try await harness.origin.settledBytesSent(for: path)
            var asked = ByteRangeSet()
            for request in harness.origin.requests(for: path) {
                guard let range = request.range?.dropFirst(6).split(separator: "-"), let first = Int64(range[0]),
                    let last = Int64(range[1])
                else { continue }
                let requested = ByteRange(offset: first, length: last - first + 1)
                #expect(asked.coveredLength(in: requested) == 0, "\(request.range ?? "") asks again for bytes already asked for")
                asked.insert(requested)
            }
        }
    }
}

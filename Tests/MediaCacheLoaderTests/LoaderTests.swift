import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct LoaderTests {
    @Test func aColdReadIsByteExactAndASecondReadCostsNoOriginBytes() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.mp4", length: 3_000_000)
            let first = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(Bytes(first.bytes) == Bytes(content.bytes(in: 0..<3_000_000)))
            #expect(try await harness.origin.settledBytesSent(for: "/a.mp4") == 3_000_000)
            #expect(first.sources == [.network: 3_000_000], "nothing was cached when the read began")

            let second = try await harness.read("/a.mp4", ByteRequest(offset: 1_000, length: 2_000_000))
            #expect(Bytes(second.bytes) == Bytes(content.bytes(in: 1_000..<2_001_000)))
            #expect(second.sources == [.cache: 2_000_000])
            #expect(harness.origin.bytesSent(for: "/a.mp4") == 3_000_000)
            #expect(
                harness.loader.statistics
                    == CacheStatistics(
                        bytesFromCache: 2_000_000, bytesFromNetwork: 3_000_000, bytesFromOrigin: 3_000_000))
        }
    }

    @Test func aReadOverAPartlyCachedResourceCountsEachByteForItsSource() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.mp4", length: 1_000_000)
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 200_000, length: 100_000))
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 600_000, length: 50_000))
            let whole = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(Bytes(whole.bytes) == Bytes(content.bytes(in: 0..<1_000_000)))
            #expect(whole.sources == [.cache: 150_000, .network: 850_000])
            #expect(harness.loader.statistics.hitRatio == 150_000.0 / 1_150_000)
        }
    }

    /// A response's first chunk reaches readers before it is stored. A reader that comes after
    /// it arrived costs the origin nothing for it, stored yet or not, and counts it as cached:
    /// a preload that reads a moov box and then plans from what is cached counts it once.
    @Test func bytesThatArrivedBeforeAReaderCameCountAsCachedForIt() async throws {
        let files = FaultyFileSystem()
        try await EngineFixture.run(storing: { $0.fileSystem = files }) { harness in
            let content = harness.serve("/a.mp4", length: 200_000)
            _ = try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4"))
            files.holdWrites(pathContaining: "/data/")
            defer { files.releaseWrites() }
            let request = ByteRequest(offset: 2, length: 1)
            let first = try await harness.read("/a.mp4", request)
            let key = harness.store.key(for: harness.origin.url("/a.mp4"))
            #expect(try !harness.store.availableRanges(for: key).contains(2), "the chunk is not stored yet")
            let second = try await harness.read("/a.mp4", request)
            #expect(Bytes(second.bytes) == Bytes(content.bytes(in: 2..<3)) && second.bytes == first.bytes)
            #expect(first.sources == [.network: 1])
            #expect(second.sources == [.cache: 1])
            #expect(harness.loader.statistics.bytesFromNetwork == 1 && harness.loader.statistics.bytesFromCache == 1)
        }
    }

    /// A read handed a record before its first byte (a server answered a head from it) never
    /// gets bytes of another version: here the origin drops the body after the head and has
    /// changed the content by the time the read asks again.
    @Test func aReadHandedARecordNeverGetsBytesOfAnotherVersion() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/a.mp4", length: 100_000, misbehavior: .init(dropsAfter: 0, holdsBodies: true))
            let url = harness.origin.url("/a.mp4")
            var read = harness.loader.read(url, ByteRequest(offset: 0)).makeAsyncIterator()
            let announced = try await read.record()

            harness.origin.changeContent(of: "/a.mp4")
            harness.origin.setMisbehavior(.init(), for: "/a.mp4")
            harness.origin.releaseBodies(of: "/a.mp4")
            await #expect {
                while try await read.next() != nil {}
            } throws: { error in
                guard let error = error as? LoaderError, error.code == .contentChanged else { return false }
                return error.message.contains("(\(announced.generation) ->")
            }
        }
    }

    @Test func contentInformationComesFromATwoByteProbeWhoseBytesAreKept() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/a.mp4", length: 100_000)
            let record = try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4"))
            #expect(record.contentInfo.totalLength == 100_000)
            #expect(record.contentInfo.acceptsRanges)
            #expect(record.contentInfo.mimeType == "video/mp4")
            #expect(record.contentInfo.etag == harness.origin.content(of: "/a.mp4")?.etag)
            #expect(record.available.ranges == [ByteRange(0, 2)])
            #expect(harness.origin.requests(for: "/a.mp4").map(\.range) == ["bytes=0-1"])
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            // The origin counts a write once it completes, which may be after the reader got it.
            #expect(try await harness.origin.settledBytesSent(for: "/a.mp4") == 100_000)
        }
    }

    @Test func anEmptyReadAsksTheOriginNothing() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/a.mp4", length: 1_000)
            let read = try await harness.read("/a.mp4", ByteRequest(offset: 500, length: 0))
            #expect(read.bytes.isEmpty)
            #expect(harness.origin.requests(for: "/a.mp4").isEmpty)
        }
    }

    @Test func redirectsAreFollowedAndCachedUnderTheRequestedURL() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/cdn/a.mp4", length: 200_000)
            harness.origin.redirect("/a.mp4", to: "/cdn/a.mp4")
            let read = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(Bytes(read.bytes) == Bytes(content.bytes(in: 0..<200_000)))
            let key = harness.store.key(for: harness.origin.url("/a.mp4"))
            #expect(try harness.store.availableRanges(for: key).coveredLength == 200_000)
        }
    }

    @Test func aBoundedReadFetchesExactlyItsGap() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.mp4", length: 1_000_000)
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 200_000, length: 100_000))
            let read = try await harness.read("/a.mp4", ByteRequest(offset: 100_000, length: 300_000))
            #expect(Bytes(read.bytes) == Bytes(content.bytes(in: 100_000..<400_000)))
            #expect(try await harness.origin.settledBytesSent(for: "/a.mp4") == 300_000)
            #expect(
                harness.origin.requests(for: "/a.mp4").map(\.range) == [
                    "bytes=200000-299999", "bytes=100000-199999", "bytes=300000-399999",
                ])
        }
    }

    @Test func bytesReceivedBeforeACancelAreServedLaterWithoutRefetching() async throws {
        try await EngineFixture.run { harness in
            let path = "/a.mp4"
            let content = harness.serve(path, length: 4_000_000, misbehavior: .init(bytesPerSecond: 8_000_000))
            let key = harness.store.key(for: harness.origin.url(path))
            let partial = try await harness.read(path, ByteRequest(offset: 0), stoppingAfter: 500_000)
            #expect(partial.bytes.count >= 500_000)
            let kept = try harness.store.availableRanges(for: key).contiguousLength(from: 0)
            #expect(kept >= 500_000)
            let requestsBefore = harness.origin.requests(for: path).count

            let again = try await harness.read(path, ByteRequest(offset: 0, length: 1_500_000))
            #expect(Bytes(again.bytes) == Bytes(content.bytes(in: 0..<1_500_000)))
            #expect(again.sources[.cache, default: 0] >= 500_000)
            let later = harness.origin.requests(for: path).dropFirst(requestsBefore)
            for request in later {
                let start = request.range.flatMap { Int64($0.dropFirst(6).prefix { $0 != "-" }) } ?? 0
                #expect(start >= kept, "\(request.range ?? "no range") asks again for bytes kept before the cancel")
            }
        }
    }

    @Test func everyByteTheOriginSentForAnAbandonedReadIsStored() async throws {
        // A busy machine may answer a loopback request slowly (over 5 s in a loaded full run);
        // that must not grow the lead here.
        try await EngineFixture.run(loading: { $0.slowRoundTrip = .seconds(3600) }) { harness in
            // Unthrottled: the origin fills socket buffers with whatever it was asked for.
            harness.serve("/a.mp4", length: 16 << 20)
            let key = harness.store.key(for: harness.origin.url("/a.mp4"))
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 0), stoppingAfter: 300_000)
            let sent = try await harness.origin.settledBytesSent(for: "/a.mp4")
            let stored = try harness.store.availableRanges(for: key).coveredLength
            #expect(stored == sent, "the origin sent \(sent) bytes; \(stored) were kept")
            let lead = MediaLoader.Configuration().initialReadahead
            #expect(
                sent <= 300_000 + 64 << 10 + lead,
                "an abandoned read cost \(sent) bytes: \(harness.origin.requests(for: "/a.mp4").map { $0.range ?? "-" })")
        }
    }

    @Test func aReaderWaitingForTheNetworkIsHandedItsBytesWithoutReadingThemBack() async throws {
        let files = FaultyFileSystem()
        try await EngineFixture.run(storing: { $0.fileSystem = files }) { harness in
            // Throttled, so that the reader always waits for the next bytes: a chunk every 16 ms,
            // so that only a stall of over 128 ms (eight chunks) on a busy machine leaves it behind
            // the chunks kept in memory.
            let content = harness.serve("/a.mp4", length: 2 << 20, misbehavior: .init(bytesPerSecond: 4_000_000))
            let cold = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(Bytes(cold.bytes) == Bytes(content.bytes(in: 0..<(2 << 20))))
            let readBack = files.bytesRead(pathContaining: "/data/")
            #expect(readBack < 256 << 10, "a waiting reader read \(readBack) of 2 MiB back from the store")

            // The store holds every byte for the readers that come later.
            let warm = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(Bytes(warm.bytes) == Bytes(content.bytes(in: 0..<(2 << 20))))
            #expect(warm.sources == [.cache: 2 << 20])
            #expect(files.bytesRead(pathContaining: "/data/") - readBack == 2 << 20)
        }
    }

    @Test func aReaderThatSendsFilesGetsEveryStoredByteAsAFileSpan() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.mp4", length: 1 << 20)
            let url = harness.origin.url("/a.mp4")
            _ = try await harness.read("/a.mp4", ByteRequest(offset: 100_000, length: 600_000))

            var read = harness.loader.read(url, ByteRequest(offset: 0)).makeAsyncIterator()
            var bytes = Data()
            var parts: [(offset: Int64, count: Int64, isFile: Bool, source: ByteChunk.Source)] = []
            while let part = try await read.nextPart(fileSpansUpTo: 256 << 10) {
                switch part {
                case .bytes(let chunk):
                    bytes += chunk.bytes
                case .file(let chunk):
                    var span = Data(count: Int(chunk.span.length))
                    let count = try span.withUnsafeMutableBytes { try chunk.span.read(from: 0, into: $0) }
                    #expect(count == span.count)
                    bytes += span
                }
                parts.append((part.offset, part.count, { if case .file = part { true } else { false } }(), part.source))
            }
            #expect(Bytes(bytes) == Bytes(content.bytes(in: 0..<(1 << 20))))
            // The cached middle comes as spans of at most 256 KiB, and so do the network bytes
            // once the fetch stored them: nothing is copied into memory for a server that sends
            // files, and no span straddles the edge of what was cached. Only a response's first
            // chunk may come in memory, handed to the reader waiting for it before it is stored.
            #expect(parts.allSatisfy { $0.count <= 256 << 10 })
            let inMemory = parts.filter { !$0.isFile }
            #expect(
                inMemory.allSatisfy { $0.source == .network && $0.count <= Int64(MediaLoader.Configuration().chunkSize) }, "\(inMemory)")
            #expect(inMemory.count <= harness.origin.requests(for: "/a.mp4").count, "\(inMemory)")
            let cached = parts.filter { $0.source == .cache }
            #expect(cached.map(\.offset) == [100_000, 362_144, 624_288])
            #expect(cached.map(\.count) == [262_144, 262_144, 75_712])
            let fromNetwork: Int64 = parts.filter { $0.source == .network }.map(\.count).reduce(0, +)
            #expect(fromNetwork == (1 << 20) - 600_000)
        }
    }

    @Test func sixteenConcurrentReadersOfAColdResourceCostOneCopy() async throws {
        try await EngineFixture.run { harness in
            let length: Int64 = 4_000_000
            let content = harness.serve("/a.mp4", length: length, misbehavior: .init(bytesPerSecond: 20_000_000))
            let reads = try await withThrowingTaskGroup(of: Data.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let offset = Int64(index % 4) * 100_000
                        return try await harness.read("/a.mp4", ByteRequest(offset: offset)).bytes
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for read in reads {
                let offset = length - Int64(read.count)
                #expect(Bytes(read) == Bytes(content.bytes(in: offset..<length)))
            }
            let sent = harness.origin.bytesSent(for: "/a.mp4")
            #expect(sent >= length)
            #expect(Double(sent) <= Double(length) * 1.05, "origin sent \(sent) bytes for a \(length)-byte resource")
        }
    }
}

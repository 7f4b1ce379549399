import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// How AVPlayer and other players really read, and what it costs at the origin.
@Suite(.timeLimit(.minutes(2))) struct PlaybackPatternTests {
    @Test func anAVPlayerLikePatternCostsTheUniqueBytesOnceAndNothingTheSecondTime() async throws {
        // Readahead and request window bound what a cancelled "read to the end" costs.
        try await EngineFixture.run(loading: {
            $0.readahead = 256 << 10
            $0.requestWindow = 256 << 10
        }) { harness in
            let length: Int64 = 24_000_000
            let content = harness.serve("/movie.mp4", length: length, misbehavior: .init(bytesPerSecond: 32_000_000))
            let url = harness.origin.url("/movie.mp4")

            var delivered = ByteRangeSet()
            func play() async throws {
                _ = try await harness.loader.contentRecord(for: url)
                let probe = try await harness.read("/movie.mp4", ByteRequest(offset: 0, length: 2))
                #expect(Bytes(probe.bytes) == Bytes(content.bytes(in: 0..<2)))
                delivered.insert(ByteRange(0, 2))
                // The moov at the end, read early.
                let moov = try await harness.read("/movie.mp4", ByteRequest(offset: length - 1_000_000))
                #expect(Bytes(moov.bytes) == Bytes(content.bytes(in: (length - 1_000_000)..<length)))
                delivered.insert(ByteRange(length - 1_000_000, length))
                // "Everything to the end", cancelled after 6 MB.
                let start = try await harness.read("/movie.mp4", ByteRequest(offset: 0), stoppingAfter: 6_000_000)
                #expect(Bytes(start.bytes) == Bytes(content.bytes(in: 0..<Int64(start.bytes.count))))
                delivered.insert(ByteRange(0, Int64(start.bytes.count)))
                // Seek forward, then back.
                for (offset, count) in [(14_000_000, 4_000_000), (8_000_000, 3_000_000)] as [(Int64, Int64)] {
                    let seek = try await harness.read("/movie.mp4", ByteRequest(offset: offset, length: count))
                    #expect(Bytes(seek.bytes) == Bytes(content.bytes(in: offset..<(offset + count))))
                    delivered.insert(ByteRange(offset, offset + count))
                }
            }

            try await play()
            let firstPass = harness.origin.bytesSent(for: "/movie.mp4")
            #expect(firstPass >= delivered.coveredLength)
            #expect(
                Double(firstPass) <= Double(delivered.coveredLength) * 1.05,
                "origin sent \(firstPass) bytes for \(delivered.coveredLength) unique bytes")

            try await play()
            #expect(harness.origin.bytesSent(for: "/movie.mp4") == firstPass, "a second pass must cost nothing")
        }
    }

    @Test func aContentChangeNeverMixesVersions() async throws {
        try await EngineFixture.run { harness in
            let length: Int64 = 3_000_000
            // Slow enough that the old version's fetch is far from offset 2,000,000 (4 s) when
            // the probe below asks for it, however loaded the machine.
            let old = harness.serve("/clip.mp4", length: length, misbehavior: .init(bytesPerSecond: 500_000))
            let url = harness.origin.url("/clip.mp4")

            // A reader streams the old version...
            var iterator = harness.loader.read(url, ByteRequest(offset: 0)).makeAsyncIterator()
            var streamed = Data()
            while streamed.count < 200_000, let chunk = try await iterator.next() { streamed.append(chunk.bytes) }

            // ...when the content changes and another reader's fetch finds out.
            harness.origin.changeContent(of: "/clip.mp4")
            let new = try #require(harness.origin.content(of: "/clip.mp4"))
            let probe = try await harness.read("/clip.mp4", ByteRequest(offset: 2_000_000, length: 100_000))
            #expect(Bytes(probe.bytes) == Bytes(new.bytes(in: 2_000_000..<2_100_000)))
            harness.origin.setMisbehavior(.init(), for: "/clip.mp4")

            await #expect {
                while let chunk = try await iterator.next() { streamed.append(chunk.bytes) }
            } throws: { error in
                guard (error as? LoaderError)?.code == .contentChanged else { return false }
                return true
            }
            #expect(Bytes(streamed) == Bytes(old.bytes(in: 0..<Int64(streamed.count))), "the old reader got only old bytes")

            let fresh = try await harness.read("/clip.mp4", ByteRequest(offset: 0))
            #expect(Bytes(fresh.bytes) == Bytes(new.bytes(in: 0..<length)))
        }
    }

    /// An answer naming another version that comes while a miss's resource is only announced
    /// came later than the announced one: the store keeps it. The announcing fetch, whose body
    /// comes after it, neither puts its older version back nor writes into the newer one, and
    /// a reader it handed the older record never gets a byte of the newer version.
    @Test func aNewerVersionRecordedWhileAMissIsOnlyAnnouncedStays() async throws {
        try await EngineFixture.run { harness in
            let old = harness.serve("/clip.mp4", length: 1_000_000, seed: 4, misbehavior: .init(holdsBodies: true))
            let url = harness.origin.url("/clip.mp4")
            let key = harness.store.key(for: url)
            var first = harness.loader.read(url, ByteRequest(offset: 0, length: 100_000)).makeAsyncIterator()
            let announced = try await first.record()
            #expect(announced.contentInfo.totalLength == 1_000_000)
            #expect(try harness.store.record(for: key) == nil, "the resource is only announced")

            let new = harness.serve("/clip.mp4", length: 1_500_000, seed: 5)
            let middle = try await harness.read("/clip.mp4", ByteRequest(offset: 500_000, length: 100_000))
            #expect(Bytes(middle.bytes) == Bytes(new.bytes(in: 500_000..<600_000)))

            // The first reader was handed the older version's record: it fails rather than go on
            // with the newer version's bytes.
            harness.origin.releaseBodies(of: "/clip.mp4")
            var bytes = Data()
            await #expect {
                while let chunk = try await first.next() { bytes.append(chunk.bytes) }
            } throws: { error in
                guard (error as? LoaderError)?.code == .contentChanged else { return false }
                return true
            }
            #expect(Bytes(bytes) == Bytes(old.bytes(in: 0..<Int64(bytes.count))), "the first reader got only old bytes")
            _ = try await harness.origin.settledBytesSent(for: "/clip.mp4")

            let record = try #require(try harness.store.record(for: key))
            #expect(record.contentInfo.totalLength == 1_500_000, "the newer version stays")
            let again = try await harness.read("/clip.mp4", ByteRequest(offset: 0, length: 200_000))
            #expect(Bytes(again.bytes) == Bytes(new.bytes(in: 0..<200_000)))
            let stored = try await harness.storedBytes(ByteRange(0, 200_000), of: "/clip.mp4")
            #expect(Bytes(stored) == Bytes(new.bytes(in: 0..<200_000)))
        }
    }

    @Test func aChangedLengthIsANewVersionEvenUnderTheSameETag() async throws {
        try await EngineFixture.run { harness in
            let old = harness.serve("/clip.mp4", length: 1_000_000, seed: 4)
            let url = harness.origin.url("/clip.mp4")
            let first = try await harness.read("/clip.mp4", ByteRequest(offset: 0, length: 100_000))
            #expect(Bytes(first.bytes) == Bytes(old.bytes(in: 0..<100_000)))
            let before = try #require(try await harness.storedRecord(of: "/clip.mp4")).generation

            let longer = harness.serve("/clip.mp4", length: 1_500_000, seed: 4)
            #expect(longer.etag == old.etag)
            // A gap inside the old length is fetched with If-Range; the answer names the new length.
            let middle = try await harness.read("/clip.mp4", ByteRequest(offset: 500_000, length: 100_000))
            #expect(Bytes(middle.bytes) == Bytes(longer.bytes(in: 500_000..<600_000)))
            let record = try #require(try harness.store.record(for: harness.store.key(for: url)))
            #expect(record.generation > before)
            #expect(record.contentInfo.totalLength == 1_500_000)
            #expect(!record.available.contains(ByteRange(0, 100_000)), "bytes of the old version were dropped")
        }
    }
}

import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// Every misbehaviour of the test origin yields byte-exact results or a precise error.
@Suite(.timeLimit(.minutes(2))) struct HostileOriginTests {
    static let tolerated: [(String, TestOrigin.Misbehavior)] = [
        ("ignores Range", .init(ignoresRange: true)),
        ("omits Accept-Ranges", .init(omitsAcceptRanges: true)),
        ("lower-case header names", .init(lowercasesHeaders: true)),
        ("chunked, no length", .init(chunked: true)),
        ("throttled", .init(bytesPerSecond: 4_000_000)),
        ("slow first byte", .init(firstByteDelay: .milliseconds(200))),
        ("drops the connection", .init(dropsAfter: 150_000)),
        ("fails with 503 first", .init(failsFirst: 3)),
        ("answers 416 to ranges", .init(refusesRanges: true)),
        ("refuses HEAD", .init(omitsAcceptRanges: true, refusesHead: true)),
        ("refuses ranges and HEAD", .init(refusesRanges: true, refusesHead: true)),
        ("everything at once", .init(lowercasesHeaders: true, chunked: true, dropsAfter: 200_000, failsFirst: 1)),
    ]

    @Test(arguments: OriginKind.allCases, tolerated.indices)
    func toleratedMisbehaviourStillGivesExactBytes(_ kind: OriginKind, _ index: Int) async throws {
        let (name, misbehavior) = Self.tolerated[index]
        // Five attempts: the origin fails three times before it answers.
        try await EngineFixture.run(
            origin: kind,
            loading: {
                $0.retry = .exponential(attempts: 5, initial: .milliseconds(10), maximum: .milliseconds(50))
            }
        ) { harness in
            let length: Int64 = 600_000
            let content = harness.serve("/a.mp4", length: length, misbehavior: misbehavior)
            let record = try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4"))
            if !misbehavior.chunked { #expect(record.contentInfo.totalLength == length, "\(name)") }
            let middle = try await harness.read("/a.mp4", ByteRequest(offset: 250_000, length: 200_000))
            #expect(Bytes(middle.bytes) == Bytes(content.bytes(in: 250_000..<450_000)), "\(name)")
            let whole = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(Bytes(whole.bytes) == Bytes(content.bytes(in: 0..<length)), "\(name)")
            let again = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            #expect(again.sources == [.cache: Int(length)], "\(name): a second read must come from the cache")
            #expect(
                try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4")).contentInfo.totalLength == length,
                "\(name): the length is known once the whole body was seen")
        }
    }

    @Test(arguments: OriginKind.allCases)
    func aContentRangeThatDoesNotStartWhereAskedIsAPreciseError(_ kind: OriginKind) async throws {
        try await EngineFixture.run(origin: kind) { harness in
            harness.serve("/a.mp4", length: 100_000)
            _ = try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4"))
            harness.origin.setMisbehavior(.init(shiftsContentRange: 10), for: "/a.mp4")
            await #expect {
                _ = try await harness.read("/a.mp4", ByteRequest(offset: 1_000, length: 1_000))
            } throws: { error in
                guard let failure = (error as? LoaderError)?.origin, failure.code == .invalidResponse else { return false }
                let reason = failure.message
                return reason.contains("1010") && reason.contains("1000")
            }
            #expect(try harness.store.availableRanges(for: harness.store.key(for: harness.origin.url("/a.mp4"))) == [ByteRange(0, 2)])
        }
    }

    @Test(arguments: OriginKind.allCases)
    func errorStatusesReachTheReaderAndNothingIsCached(_ kind: OriginKind) async throws {
        try await EngineFixture.run(origin: kind) { harness in
            await #expect {
                _ = try await harness.read("/missing.mp4", ByteRequest(offset: 0))
            } throws: { error in
                guard (error as? LoaderError)?.origin?.status == 404 else { return false }
                return true
            }
            harness.serve("/down.mp4", length: 1_000, misbehavior: .init(failsFirst: 100))
            await #expect {
                _ = try await harness.loader.contentRecord(for: harness.origin.url("/down.mp4"))
            } throws: { error in
                guard (error as? LoaderError)?.origin?.status == 503 else { return false }
                return true
            }
            let entries = try harness.store.entries()
            #expect(entries.isEmpty)
        }
    }

    @Test func aFullDiskFailsThatReadAndOtherResourcesKeepWorking() async throws {
        let files = FaultyFileSystem()
        try await EngineFixture.run(storing: { $0.fileSystem = files }) { harness in
            harness.serve("/a.mp4", length: 200_000)
            let content = harness.serve("/b.mp4", length: 200_000, seed: 9)
            _ = try await harness.loader.contentRecord(for: harness.origin.url("/a.mp4"))
            files.inject(.write, code: ENOSPC, pathContaining: "/data/1.data")
            await #expect {
                _ = try await harness.read("/a.mp4", ByteRequest(offset: 0))
            } throws: { error in
                guard (error as? LoaderError)?.isDiskFull == true else { return false }
                return true
            }
            let other = try await harness.read("/b.mp4", ByteRequest(offset: 0))
            #expect(Bytes(other.bytes) == Bytes(content.bytes(in: 0..<200_000)))
        }
    }

    /// A response's first chunk reaches the readers waiting for it as it arrives, before it is
    /// stored (a miss's first bytes do not wait for the data file's creation): a reader asking
    /// for no more than that chunk gets its bytes even when the store cannot keep them, and
    /// the store claims none of them; a reader asking for more learns that the disk is full.
    /// The second read is over three times what `HTTPOrigin` reads ahead (512 KiB), so no
    /// first chunk can hold it however the origin's bytes coalesce.
    @Test func aMissesFirstChunkReachesItsReaderEvenWhenTheStoreCannotKeepIt() async throws {
        let files = FaultyFileSystem()
        try await EngineFixture.run(storing: { $0.fileSystem = files }) { harness in
            let content = harness.serve("/a.mp4", length: 2_000_000)
            files.inject(.write, code: ENOSPC, pathContaining: "/data/")
            let head = try await harness.read("/a.mp4", ByteRequest(offset: 100, length: 100))
            #expect(Bytes(head.bytes) == Bytes(content.bytes(in: 100..<200)))
            let key = harness.store.key(for: harness.origin.url("/a.mp4"))
            #expect(try harness.store.availableRanges(for: key).isEmpty)
            await #expect {
                _ = try await harness.read("/a.mp4", ByteRequest(offset: 150_000))
            } throws: { error in
                guard (error as? LoaderError)?.isDiskFull == true else { return false }
                return true
            }
            #expect(try harness.store.availableRanges(for: key).isEmpty)
        }
    }

    /// An origin that answers with an empty body of unknown length (chunked, no ranges) is
    /// asked once: the read fails as for `Content-Length: 0`, instead of asking again forever.
    @Test(arguments: OriginKind.allCases)
    func anEmptyBodyOfUnknownLengthFailsTheReadAndIsAskedForOnce(_ kind: OriginKind) async throws {
        try await EngineFixture.run(origin: kind) { harness in
            harness.serve("/empty.mp4", length: 0, misbehavior: .init(ignoresRange: true, chunked: true))
            await #expect {
                _ = try await harness.read("/empty.mp4", ByteRequest(offset: 0))
            } throws: { error in
                guard (error as? LoaderError)?.store?.code == .invalidContentInfo else { return false }
                return true
            }
            #expect(harness.origin.requests(for: "/empty.mp4").count == 1)
        }
    }

    @Test(arguments: OriginKind.allCases)
    func readingAtOrPastTheEndIsUnsatisfiableAndAnUnknownLengthIsLearnedAtEOF(_ kind: OriginKind) async throws {
        try await EngineFixture.run(origin: kind) { harness in
            let content = harness.serve("/live.ts", length: 300_000, misbehavior: .init(chunked: true))
            let url = harness.origin.url("/live.ts")
            let whole = try await harness.read("/live.ts", ByteRequest(offset: 100))
            #expect(Bytes(whole.bytes) == Bytes(content.bytes(in: 100..<300_000)))
            #expect(try await harness.loader.contentRecord(for: url).contentInfo.totalLength == 300_000)
            await #expect {
                _ = try await harness.read("/live.ts", ByteRequest(offset: 300_000))
            } throws: { error in
                guard let error = error as? LoaderError, error.code == .rangeNotSatisfiable else { return false }
                return error.totalLength == 300_000 && error.message.contains("offset 300000")
            }
            let tail = try await harness.read("/live.ts", ByteRequest(offset: 299_990, length: 100))
            #expect(tail.bytes.count == 10)
        }
    }
}

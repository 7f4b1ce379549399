import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// Small resources that change on the origin (playlists): served fresh, confirmed with the
/// origin's validators, replaced whole when changed, served stale only when the origin is out
/// of reach.
@Suite(.timeLimit(.minutes(1))) struct RevalidationTests {
    let limit: Int64 = 1 << 20

    func content(_ text: String) -> TestOrigin.Content {
        .data(Data(text.utf8), mimeType: "application/vnd.apple.mpegurl")
    }

    func revalidated(_ harness: EngineFixture, _ path: String, maximumAge: Duration) async throws -> RevalidatedContent {
        try await harness.loader.revalidatedContent(of: harness.origin.url(path), maximumLength: limit) { _ in maximumAge }
    }

    @Test func aFreshCopyIsServedWithoutAskingTheOrigin() async throws {
        try await EngineFixture.run { harness in
            harness.origin.serve("/a.m3u8", content: content("#EXTM3U\n#EXT-X-ENDLIST\n"))
            let first = try await revalidated(harness, "/a.m3u8", maximumAge: .seconds(60))
            #expect(first.source == .network && !first.isStale)
            #expect(first.body == Data("#EXTM3U\n#EXT-X-ENDLIST\n".utf8))
            let requests = harness.origin.requests(for: "/a.m3u8").count
            let second = try await revalidated(harness, "/a.m3u8", maximumAge: .seconds(60))
            #expect(second.source == .cache && second.body == first.body)
            #expect(harness.origin.requests(for: "/a.m3u8").count == requests, "a fresh copy costs no request")
        }
    }

    @Test func aLargeContentThatChangesAfterItsFirstBytesIsReadWholeInItsNewVersion() async throws {
        try await EngineFixture.run { harness in
            let old = TestOrigin.Content.pattern(length: 400_000, seed: 1)
            harness.origin.serve("/big.m3u8", content: old)
            harness.origin.setMisbehavior(.init(holdsBodies: true), for: "/big.m3u8")
            let read = Task { try await revalidated(harness, "/big.m3u8", maximumAge: .seconds(60)) }
            await harness.origin.requested("/big.m3u8")
            let new = TestOrigin.Content.pattern(length: 450_000, seed: 2)
            harness.origin.serve("/big.m3u8", content: new)
            harness.origin.releaseBodies(of: "/big.m3u8")
            let content = try await read.value
            #expect(content.body == new.bytes(in: 0..<450_000), "never the old version's first bytes and the new one's rest")
            #expect(content.record.contentInfo.totalLength == 450_000)
            let requests = harness.origin.requests(for: "/big.m3u8")
            #expect(requests.map(\.range) == ["bytes=0-262143", "bytes=262144-"] && requests.last?.ifRange == old.etag)
        }
    }

    @Test func anOlderCopyIsConfirmedWithItsValidatorsAndCostsNoBody() async throws {
        try await EngineFixture.run { harness in
            let served = content("#EXTM3U\n#EXTINF:4,\na.ts\n")
            harness.origin.serve("/live.m3u8", content: served)
            _ = try await revalidated(harness, "/live.m3u8", maximumAge: .zero)
            let sent = harness.origin.bytesSent(for: "/live.m3u8")
            let again = try await revalidated(harness, "/live.m3u8", maximumAge: .zero)
            #expect(again.source == .cache && again.age == .zero && !again.isStale)
            #expect(harness.origin.requests(for: "/live.m3u8").last?.ifNoneMatch == served.etag)
            #expect(harness.origin.bytesSent(for: "/live.m3u8") == sent, "304 Not Modified carries no body")
        }
    }

    @Test func aChangedResourceReplacesTheOldOneInANewGeneration() async throws {
        try await EngineFixture.run { harness in
            harness.origin.serve("/live.m3u8", content: content("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:4,\na1.ts\n"))
            let first = try await revalidated(harness, "/live.m3u8", maximumAge: .zero)
            let newer = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:2\n#EXTINF:4,\na2.ts\n#EXTINF:4,\na3.ts\n"
            harness.origin.serve("/live.m3u8", content: content(newer))
            let second = try await revalidated(harness, "/live.m3u8", maximumAge: .zero)
            #expect(second.source == .network && second.body == Data(newer.utf8))
            #expect(second.record.generation > first.record.generation)
            let key = harness.store.key(for: harness.origin.url("/live.m3u8"))
            let stored = try harness.store.read(ByteRange(0, Int64(newer.utf8.count)), from: key)
            #expect(stored == Data(newer.utf8), "the store holds the new content only")
        }
    }

    @Test func anUnreachableOriginGetsTheStoredCopyMarkedStale() async throws {
        try await EngineFixture.run { harness in
            harness.origin.serve("/a.m3u8", content: content("#EXTM3U\n#EXTINF:4,\na.ts\n"))
            let url = harness.origin.url("/a.m3u8")
            let first = try await revalidated(harness, "/a.m3u8", maximumAge: .zero)
            try await harness.origin.stop()
            let stale = try await harness.loader.revalidatedContent(of: url, maximumLength: limit) { _ in .zero }
            #expect(stale.isStale && stale.source == .cache && stale.body == first.body)
            #expect(stale.age != nil)
            await #expect(throws: LoaderError.self, "nothing stored, nothing to serve") {
                try await harness.loader.revalidatedContent(of: harness.origin.url("/other.m3u8"), maximumLength: limit) { _ in .zero }
            }
        }
    }

    @Test func aGoneResourceIsReportedNotServedStale() async throws {
        try await EngineFixture.run { harness in
            harness.origin.serve("/a.m3u8", content: content("#EXTM3U\n"))
            _ = try await revalidated(harness, "/a.m3u8", maximumAge: .zero)
            harness.origin.remove("/a.m3u8")
            await #expect {
                try await revalidated(harness, "/a.m3u8", maximumAge: .zero)
            } throws: { error in
                guard (error as? LoaderError)?.origin?.status == 404 else { return false }
                return true
            }
        }
    }

    @Test func aResourceLongerThanTheLimitIsRefusedWhileItArrives() async throws {
        try await EngineFixture.run(loading: { $0.retry = .never }) { harness in
            var chunked = TestOrigin.Misbehavior()
            chunked.chunked = true
            harness.origin.serve("/big.m3u8", content: .pattern(length: 3 << 20, seed: 3, mimeType: "application/x-mpegurl"))
            harness.origin.setMisbehavior(chunked, for: "/big.m3u8")
            await #expect {
                try await revalidated(harness, "/big.m3u8", maximumAge: .zero)
            } throws: { error in
                guard let error = error as? LoaderError, error.code == .tooLarge else { return false }
                return error.limit == 1 << 20
            }
        }
    }
}

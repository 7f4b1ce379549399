#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheTesting
import Testing

/// AVPlayer's documented request sequences replayed against the caching asset's delegate over
/// the real loopback origin: the bytes delivered equal the file, and the cache fetches what it
/// lacked, each byte once (measured as bytes received and stored: what the origin had pushed
/// into socket buffers when a fetch was cancelled is not fetched).
@Suite(.timeLimit(.minutes(2))) struct ResourceLoaderReplayTests {
    /// A fetch cancelled just as a new one starts over the same bytes may still store the one
    /// network read it had in hand (at most 64 KiB): the only bytes the cache can fetch twice.
    static let inFlightRead: Int64 = 64 << 10

    @Test func contentInformationComesWithTheTwoByteProbe() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/a.mp4", length: 1 << 20)
            let (asset, player) = harness.simulator("/a.mp4")
            #expect(asset.url.absoluteString == "mediacache+http://127.0.0.1:\(harness.origin.port)/a.mp4")
            let (probe, information) = player.contentInformation()
            _ = await probe.finished()
            #expect(information.contentType == "public.mpeg-4")
            #expect(information.contentLength == 1 << 20)
            #expect(information.isByteRangeAccessSupported)
            #expect(!information.isEntireLengthAvailableOnDemand)
            #expect(Bytes(probe.received) == Bytes(file.prefix(2)), "the two bytes are answered (the probe stored them)")
            #expect(probe.loading.finishCalls == 1 && probe.loading.finishError == nil)
            #expect(harness.origin.bytesSent(for: "/a.mp4") == 2)

            let (other, compatible) = player.contentInformation(allowed: ["com.apple.quicktime-movie"])
            _ = await other.finished()
            #expect(compatible.contentType == "com.apple.quicktime-movie", "an allowed type of the same container")
            #expect(other.loading.finishError == nil)

            let (refused, unfilled) = player.contentInformation(allowed: ["public.mp3"])
            _ = await refused.finished()
            #expect(unfilled.contentType == nil)
            guard let error = refused.loading.finishError as? PlaybackCacheError, error.code == .contentTypeNotAllowed,
                error.message.contains("served as video/mp4"), error.message.contains("(public.mp3)")
            else {
                Issue.record("no allowed type fits: \(String(describing: refused.loading.finishError))")
                return
            }
            #expect(asset.cacheErrorLog().events.last?.errorComment?.contains("public.mp3") == true)
        }
    }

    @Test func readToEndCancelledAfterAFewHundredKBThenResumed() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/a.mp4", length: 4 << 20, bytesPerSecond: 4 << 20)
            let (_, player) = harness.simulator("/a.mp4")
            _ = await player.contentInformation().0.finished()
            let first = player.read(from: 0)
            await first.bytes(300_000)
            player.cancel(first)
            let stopped = first.received
            #expect(stopped.count >= 300_000 && stopped == file.prefix(stopped.count))
            #expect(first.loading.finishCalls == 0, "a cancelled request is not finished")

            let rest = await player.read(from: Int64(stopped.count)).finished()
            #expect(Bytes(rest.received) == Bytes(file.suffix(from: stopped.count)))
            #expect(rest.loading.finishCalls == 1 && rest.loading.finishError == nil)
            let fetched = try harness.fetched()
            #expect(fetched >= 4 << 20 && fetched <= (4 << 20) + Self.inFlightRead, "every byte fetched once")
        }
    }

    @Test func anMP4WithMoovAtTheEndIsReadNearTheEndEarly() async throws {
        try await AdapterHarness.run { harness in
            let file = try await TestMedia.moovAtEndMP4(seconds: 30).make(in: harness.directory.path)
            harness.origin.serve("/m.mp4", content: .data(file, mimeType: "video/mp4"))
            harness.origin.setMisbehavior(.init(bytesPerSecond: 4 << 20), for: "/m.mp4")
            let index = try await MP4Index.load(from: DataByteSource(file))
            let moov = try #require(index.byteRanges(forFirst: 0).ranges.last)
            let (_, player) = harness.simulator("/m.mp4")
            let (probe, information) = player.contentInformation()
            _ = await probe.finished()
            #expect(information.contentType == "public.mpeg-4" && information.contentLength == Int64(file.count))

            let head = player.read(from: 0)
            await head.bytes(16_384)
            let tail = await player.read(from: moov.lowerBound).finished()
            #expect(Bytes(tail.received) == Bytes(file.suffix(from: Int(moov.lowerBound))))
            player.cancel(head)
            let resumed = await player.read(from: Int64(head.received.count)).finished()
            #expect(Bytes(head.received + resumed.received) == Bytes(file))
            let fetched = try harness.fetched()
            #expect(fetched >= Int64(file.count) && fetched <= Int64(file.count) + Self.inFlightRead, "every byte fetched once")
        }
    }

    @Test func aSeekIsACancelAndANewOffsetInEitherOrder() async throws {
        // A small readahead, so that what a cancelled read fetched ahead of its delivery is small.
        try await AdapterHarness.run(configure: { $0.loader.readahead = 512 << 10 }) { harness in
            let file = harness.serve("/a.mp4", length: 4 << 20, bytesPerSecond: 2 << 20)
            let (_, player) = harness.simulator("/a.mp4")
            let first = player.read(from: 0)
            await first.bytes(200_000)
            let seek = player.read(from: 3 << 20)  // arrives before the cancel
            player.cancel(first)
            let after = await seek.finished()
            #expect(Bytes(after.received) == Bytes(file.suffix(from: 3 << 20)))
            #expect(Bytes(first.received) == Bytes(file.prefix(first.received.count)))
            let again = player.read(from: 1 << 20)  // the cancel first, then the new offset
            await again.bytes(100_000)
            player.cancel(again)
            let last = await player.read(from: 2 << 20, length: 65_536).finished()
            #expect(Bytes(last.received) == Bytes(file.subdata(in: 2 << 20..<(2 << 20) + 65_536)))
            let fetched = try harness.fetched()
            #expect(fetched < 4 << 20, "the skipped middle is not fetched whole")
        }
    }

    @Test func manySmallConcurrentOverlappingReads() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/a.mp4", length: 2 << 20)
            let (_, player) = harness.simulator("/a.mp4")
            var generator = SplitMix64(seed: 5)
            let requests = (0..<48).map { _ in
                let offset = Int64(generator.next() % UInt64((2 << 20) - 65_536))
                return player.read(from: offset, length: 4_096 + Int(generator.next() % 61_440))
            }
            for request in requests {
                let done = await request.finished()
                let start = Int(done.data.requestedOffset)
                #expect(Bytes(done.received) == Bytes(file.subdata(in: start..<start + done.data.requestedLength)))
                #expect(done.loading.finishCalls == 1)
            }
            let fetched = try harness.fetched()
            #expect(fetched <= 2 << 20, "no byte fetched twice")
        }
    }

    @Test func aCancelThatNeverArrivesIsBounded() async throws {
        try await AdapterHarness.run(configure: {
            $0.resourceLoading.supersededAllowance = 256 << 10
            $0.loader.readahead = 256 << 10  // how far the fetch may run ahead of what was delivered
        }) { harness in
            let file = harness.serve("/a.mp4", length: 4 << 20, bytesPerSecond: 2 << 20)
            let (_, player) = harness.simulator("/a.mp4")
            let forgotten = player.read(from: 0)
            await forgotten.bytes(200_000)
            let atSupersede = forgotten.received.count
            let next = await player.read(from: 3 << 20).finished()
            #expect(Bytes(next.received) == Bytes(file.suffix(from: 3 << 20)))
            let delivered = forgotten.received
            #expect(Bytes(delivered) == Bytes(file.prefix(delivered.count)))
            #expect(
                delivered.count <= atSupersede + (256 << 10) + 2 * (64 << 10),
                "\(delivered.count) bytes after \(atSupersede) with a 256 KiB allowance")
            #expect(forgotten.loading.finishCalls == 0, "it stays open for AVPlayer to cancel")
            let fetched = try harness.fetched()
            let bound = Int64(delivered.count) + (256 << 10) + 2 * (64 << 10) + (1 << 20)
            #expect(
                fetched <= bound,
                "\(fetched) bytes fetched: the forgotten request's, at most its readahead more, and the 1 MiB read after it")
        }
    }

    @Test func anAssetReleasedMidLoadStopsItsRequests() async throws {
        try await AdapterHarness.run { harness in
            harness.serve("/a.mp4", length: 8 << 20, bytesPerSecond: 1 << 20)
            let player = harness.simulator("/a.mp4").1
            weak let asset = player.asset
            let reading = player.read(from: 0)
            await reading.bytes(100_000)
            player.releaseAsset()
            _ = await reading.finished()
            #expect((reading.loading.finishError as? URLError)?.code == .cancelled)
            #expect(asset == nil)
            // The cancel travels from the asset to the fetch through a few tasks; on a loaded
            // machine that takes a moment. A fetch still running grows every 250 ms at 1 MiB/s.
            var last = try harness.fetched()
            for _ in 0..<20 {
                try await Task.sleep(for: .milliseconds(250))
                let now = try harness.fetched()
                if now == last { break }
                last = now
            }
            let settled = try harness.fetched()
            #expect(settled == last, "the fetch went on after the asset was released")
            #expect(settled < 8 << 20)
        }
    }

    @Test func theSameItemPlayedTwiceAndThenOfflineComesFromTheCache() async throws {
        try await AdapterHarness.run { harness in
            let file = harness.serve("/a.mp4", length: 1 << 20)
            for _ in 0..<2 {
                let (_, player) = harness.simulator("/a.mp4")
                _ = await player.contentInformation().0.finished()
                let whole = await player.read(from: 0).finished()
                #expect(Bytes(whole.received) == Bytes(file))
                let fetched = try harness.fetched()
                #expect(fetched == 1 << 20, "the second play costs no origin byte")
            }
            try await harness.origin.stop()
            let (asset, player) = harness.simulator("/a.mp4")
            let (probe, information) = player.contentInformation()
            _ = await probe.finished()
            #expect(information.contentLength == 1 << 20 && information.isEntireLengthAvailableOnDemand)
            let offline = await player.read(from: 0).finished()
            #expect(offline.received == file && offline.loading.finishError == nil)
            let log = asset.cacheAccessLog()
            #expect(log.events.count == 2)
            #expect(log.events.last?.numberOfBytesFromCache == 1 << 20 && log.events.last?.numberOfBytesFromNetwork == 0)
        }
    }

    @Test func anOriginFailureFinishesTheRequestWithTheErrorAndLogsIt() async throws {
        try await AdapterHarness.run { harness in
            let (asset, player) = harness.simulator("/missing.mp4")
            let (probe, _) = player.contentInformation()
            _ = await probe.finished()
            #expect(probe.loading.finishCalls == 1)
            #expect((probe.loading.finishError as? LoaderError).map { "\($0)" }?.contains("404") == true)
            let errors = asset.cacheErrorLog()
            #expect(errors.events.map(\.errorStatusCode) == [404])
            let text = try #require(errors.extendedLogData().map { String(decoding: $0, as: UTF8.self) })
            #expect(text.contains("#Fields: date time uri cs-guid status domain comment"))
            #expect(text.contains(" 404 MediaCache.LoaderError \""))
        }
    }
}
#endif

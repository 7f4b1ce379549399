import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheTesting
import Testing

/// The preloader against the loopback test origin: what it fetches, in what order, how many at
/// once, that it stays out of playback's way, that it stops when cancelled, and what the
/// statistics say afterwards.
@Suite(.timeLimit(.minutes(2))) struct PreloaderTests {
    /// Collects updates until `count` jobs have ended; returns every update in order.
    static func updates(until count: Int, from stream: AsyncStream<PreloadJob>) async -> [PreloadJob] {
        var seen: [PreloadJob] = []
        var ended: Set<ResourceKey> = []
        for await job in stream {
            seen.append(job)
            if job.state.isFinal { ended.insert(job.key) } else { ended.remove(job.key) }
            if ended.count == count { break }
        }
        return seen
    }

    @Test func preloadsExactlyTheAmountOnceThroughTheLoader() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.bin", length: 4 << 20)
            let preloader = Preloader(loader: harness.loader)
            let stream = await preloader.updates()
            await preloader.preload(harness.origin.url("/a.bin"), amount: .bytes(1 << 20))
            let seen = await Self.updates(until: 1, from: stream)
            #expect(seen.last?.state == .finished)
            #expect(seen.last?.bytesDone == 1 << 20 && seen.last?.bytesTarget == 1 << 20)
            let key = harness.store.key(for: harness.origin.url("/a.bin"))
            #expect(try harness.store.availableRanges(for: key) == [ByteRange(0, 1 << 20)])
            let fetched = harness.origin.bytesSent(for: "/a.bin")
            #expect(fetched <= (1 << 20) + 2, "the probe's two bytes at most beyond the amount")

            let again = await preloader.updates()
            await preloader.preload(harness.origin.url("/a.bin"), amount: .bytes(1 << 20))
            _ = await Self.updates(until: 1, from: again)
            #expect(harness.origin.bytesSent(for: "/a.bin") == fetched, "cached bytes are not fetched again")
            let read = try await harness.read("/a.bin", ByteRequest(offset: 0, length: 1 << 20))
            #expect(Bytes(read.bytes) == Bytes(content.bytes(in: 0..<1 << 20)))
        }
    }

    @Test func runsByPriorityThenNewestFirstAndAtMostTheLimitAtOnce() async throws {
        try await EngineFixture.run { harness in
            for name in ["a", "b", "c", "d", "e"] {
                harness.serve("/\(name)", length: 256 << 10, misbehavior: .init(bytesPerSecond: 2 << 20))
            }
            var serial = Preloader.Configuration()
            serial.maxConcurrentJobs = 1
            let preloader = Preloader(loader: harness.loader, configuration: serial)
            let stream = await preloader.updates()
            await preloader.preload(harness.origin.url("/a"), amount: .full)
            await preloader.preload(harness.origin.url("/b"), amount: .full)
            await preloader.preload(harness.origin.url("/c"), amount: .full, priority: 5)
            await preloader.preload(harness.origin.url("/d"), amount: .full)
            let seen = await Self.updates(until: 4, from: stream)
            let starts = seen.filter { $0.state == .running && $0.bytesTarget == nil }.map { $0.url.lastPathComponent }
            #expect(starts == ["a", "c", "d", "b"])

            // Fresh, slow resources: a job over bytes already cached ends at once and overlaps
            // no other, so only uncached ones show how many run together.
            let parallelNames = ["p", "q", "r", "s", "t"]
            for name in parallelNames {
                harness.serve("/\(name)", length: 256 << 10, misbehavior: .init(bytesPerSecond: 1 << 20))
            }
            let parallel = Preloader(loader: harness.loader)
            let more = await parallel.updates()
            for name in parallelNames {
                await parallel.preload(harness.origin.url("/\(name)"), amount: .full)
            }
            var running: Set<String> = []
            var most = 0
            for job in await Self.updates(until: 5, from: more) {
                if job.state == .running { running.insert(job.url.lastPathComponent) } else { running.remove(job.url.lastPathComponent) }
                most = max(most, running.count)
            }
            #expect(most == 2)
        }
    }

    @Test func preloadsPauseWhilePlaybackWaitsForTheNetwork() async throws {
        try await EngineFixture.run { harness in
            let playing = harness.serve("/playing", length: 1 << 20, misbehavior: .init(bytesPerSecond: 512 << 10))
            harness.serve("/next1", length: 4 << 20, misbehavior: .init(bytesPerSecond: 1 << 20))
            harness.serve("/next2", length: 4 << 20, misbehavior: .init(bytesPerSecond: 1 << 20))
            var configuration = Preloader.Configuration()
            configuration.stepSize = 64 << 10
            configuration.playbackQuietPeriod = .seconds(1)
            let preloader = Preloader(loader: harness.loader, configuration: configuration)
            let stream = await preloader.updates()
            await preloader.preload(harness.origin.url("/next1"), amount: .full)
            await preloader.preload(harness.origin.url("/next2"), amount: .full)
            var started: Set<ResourceKey> = []
            for await job in stream where job.bytesDone > 0 {
                started.insert(job.key)
                if started.count == 2 { break }
            }
            func preloaded() -> Int64 { harness.origin.bytesSent(for: "/next1") + harness.origin.bytesSent(for: "/next2") }

            var atFirstChunk: Int64?
            var bytes = Data()
            for try await chunk in harness.loader.read(harness.origin.url("/playing"), ByteRequest(offset: 0)) {
                if atFirstChunk == nil { atFirstChunk = preloaded() }
                bytes.append(chunk.bytes)
            }
            let during = preloaded() - (atFirstChunk ?? 0)
            #expect(Bytes(bytes) == Bytes(playing.bytes(in: 0..<1 << 20)))
            #expect(
                during <= 2 * configuration.stepSize,
                "preloads fetched \(during) bytes while playback waited; at most the steps in flight")

            let rest = await Self.updates(until: 2, from: stream)
            #expect(rest.filter(\.state.isFinal).map(\.state) == [.finished, .finished], "preloads go on once playback is quiet")
            // The origin counts a write once its socket took it, which may come after the
            // client has read the bytes and finished.
            let settled =
                try await harness.origin.settledBytesSent(for: "/next1", quiet: .milliseconds(200))
                + harness.origin.settledBytesSent(for: "/next2", quiet: .milliseconds(200))
            #expect(settled == 8 << 20)
        }
    }

    @Test func cancelledJobsStopFetchingAndKeepWhatTheyFetched() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/big", length: 8 << 20, misbehavior: .init(bytesPerSecond: 1 << 20))
            harness.serve("/queued1", length: 1 << 20)
            harness.serve("/queued2", length: 1 << 20)
            var configuration = Preloader.Configuration()
            configuration.maxConcurrentJobs = 1
            configuration.stepSize = 64 << 10
            let preloader = Preloader(loader: harness.loader, configuration: configuration)
            let stream = await preloader.updates()
            let big = harness.origin.url("/big")
            await preloader.preload(big, amount: .full)
            for await job in stream where job.bytesDone >= 256 << 10 { break }
            await preloader.cancel(big)
            var done: Int64 = 0
            for await job in stream where job.state.isFinal {
                #expect(job.state == .cancelled)
                done = job.bytesDone
                break
            }
            let sent = harness.origin.bytesSent(for: "/big")
            #expect(sent < done + 2 * configuration.stepSize, "sent \(sent) after \(done) preloaded")
            let cached = try harness.store.availableRanges(for: harness.store.key(for: big)).coveredLength
            #expect(cached >= done)

            await preloader.preload(big, amount: .full)
            await preloader.preload(harness.origin.url("/queued1"), amount: .full)
            await preloader.preload(harness.origin.url("/queued2"), amount: .full)
            await preloader.cancelAll()
            let ended = await Self.updates(until: 3, from: stream)
            #expect(ended.filter(\.state.isFinal).allSatisfy { $0.state == .cancelled })
            #expect(harness.origin.bytesSent(for: "/queued1") == 0 && harness.origin.bytesSent(for: "/queued2") == 0)
            #expect(await preloader.jobs.map(\.state) == [.cancelled, .cancelled, .cancelled])
        }
    }

    @Test func statisticsTellPreloadedBytesPlayedFromWasted() async throws {
        try await EngineFixture.run { harness in
            harness.serve("/watched", length: 2 << 20)
            harness.serve("/skipped", length: 2 << 20)
            let preloader = Preloader(loader: harness.loader)
            let stream = await preloader.updates()
            await preloader.preload(harness.origin.url("/watched"), amount: .bytes(1 << 20))
            await preloader.preload(harness.origin.url("/skipped"), amount: .bytes(1 << 20))
            _ = await Self.updates(until: 2, from: stream)
            _ = try await harness.read("/watched", ByteRequest(offset: 0))

            let overall = harness.loader.statistics
            #expect(overall.bytesPreloaded == 2 << 20)
            #expect(overall.bytesPreloadedPlayed == 1 << 20)
            #expect(overall.bytesPreloadedUnplayed == 1 << 20)
            #expect(overall.bytesFromCache == 1 << 20 && overall.bytesFromNetwork == 1 << 20)
            let watched = try #require(harness.loader.resourceStatistics[harness.store.key(for: harness.origin.url("/watched"))])
            #expect(watched.bytesPreloadedPlayed == 1 << 20 && watched.hitRatio == 0.5)
            #expect(watched.bytesFromOrigin == 2 << 20)
            let skipped = try #require(harness.loader.resourceStatistics[harness.store.key(for: harness.origin.url("/skipped"))])
            #expect(skipped.bytesPreloadedUnplayed == 1 << 20 && skipped.bytesServed == 0)
        }
    }

    @Test func secondsOfAnUnreadableContainerAreEstimatedAndSaySo() async throws {
        try await EngineFixture.run { harness in
            harness.origin.serve("/broken.mp4", content: .data(Data(repeating: 0xAB, count: 2 << 20), mimeType: "video/mp4"))
            var configuration = Preloader.Configuration()
            configuration.assumedBitrate = 800_000
            let preloader = Preloader(loader: harness.loader, configuration: configuration)
            let stream = await preloader.updates()
            await preloader.preload(harness.origin.url("/broken.mp4"), amount: .seconds(2))
            let job = try #require(await Self.updates(until: 1, from: stream).last)
            #expect(job.state == .finished)
            #expect(job.method == "estimate at 800000 bit/s")
            #expect(job.bytesTarget == 200_000)
            #expect(job.error == "malformed container: box at 0 has no printable type; not an MP4; seconds estimated", "\(job.error ?? "")")
        }
    }
}

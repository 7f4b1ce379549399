import CoreMetrics

/// Counts the bytes a loader serves, preloads and fetches, overall and per resource, in memory
/// for ``CacheStatistics`` and as swift-metrics counters for whatever metrics backend the
/// process uses: `mediacache_served_bytes_total{source}`, `mediacache_origin_bytes_total`,
/// `mediacache_preloaded_bytes_total` and `mediacache_preloaded_played_bytes_total`.
///
/// Per-resource counts are kept for every resource read since the loader was created.
final class StatisticsRecorder: Sendable {
    /// One resource's counts and which of its bytes were preloaded and then played.
    private struct Tally {
        var statistics = CacheStatistics()
        var preloaded = ByteRangeSet()
        var played = ByteRangeSet()

        /// Records that a player got `range`; returns how many preloaded bytes it played for the
        /// first time.
        mutating func markPlayed(_ range: ByteRange) -> Int64 {
            var fresh: Int64 = 0
            for overlap in preloaded.intersection(range) {
                fresh += overlap.length - played.coveredLength(in: overlap)
                played.insert(overlap)
            }
            statistics.bytesPreloadedPlayed += fresh
            return fresh
        }
    }

    private struct Counts {
        var overall = CacheStatistics()
        var resources: [ResourceKey: Tally] = [:]
    }

    private let counts = Locked(Counts())
    private let servedFromCache: Counter
    private let servedFromNetwork: Counter
    private let fetched: Counter
    private let preloaded: Counter
    private let preloadedPlayed: Counter

    init(factory: (any MetricsFactory)?) {
        func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
            factory.map { Counter(label: label, dimensions: dimensions, factory: $0) }
                ?? Counter(label: label, dimensions: dimensions)
        }
        servedFromCache = counter("mediacache_served_bytes_total", [("source", "cache")])
        servedFromNetwork = counter("mediacache_served_bytes_total", [("source", "network")])
        fetched = counter("mediacache_origin_bytes_total")
        preloaded = counter("mediacache_preloaded_bytes_total")
        preloadedPlayed = counter("mediacache_preloaded_played_bytes_total")
    }

    var snapshot: CacheStatistics { counts.withLock(\.overall) }

    var resources: [ResourceKey: CacheStatistics] {
        counts.withLock { $0.resources.mapValues(\.statistics) }
    }

    /// Counts a chunk delivered to a reader of `key`.
    func delivered(_ chunk: ByteChunk, of key: ResourceKey, for purpose: ReadPurpose) {
        delivered(.bytes(chunk), of: key, for: purpose)
    }

    /// Counts a part delivered to a reader of `key`.
    func delivered(_ part: ReadPart, of key: ResourceKey, for purpose: ReadPurpose) {
        delivered(ByteRange(offset: part.offset, length: part.count), source: part.source, of: key, for: purpose)
    }

    /// Counts the bytes of `range` of `key`, from `source`, delivered to a reader.
    func delivered(_ range: ByteRange, source: ByteChunk.Source, of key: ResourceKey, for purpose: ReadPurpose) {
        let count = range.length
        switch (purpose, source) {
        case (.playback, let source):
            // Network bytes too may have been preloaded: by a preload of the same resource
            // that fetched them during the read.
            let played = update(key) { tally in
                if source == .cache { tally.statistics.bytesFromCache += count } else { tally.statistics.bytesFromNetwork += count }
                return tally.markPlayed(range)
            }
            (source == .cache ? servedFromCache : servedFromNetwork).increment(by: count)
            if played > 0 { preloadedPlayed.increment(by: played) }
        case (.preload, .network):
            update(key) { tally in
                tally.statistics.bytesPreloaded += count
                tally.preloaded.insert(range)
            }
            preloaded.increment(by: count)
        default:
            break  // cached bytes a preload read, and downloads, are counted as origin bytes only
        }
    }

    /// Counts bytes of `key` received from the origin.
    func fetchedFromOrigin(_ count: Int, of key: ResourceKey) {
        update(key) { $0.statistics.bytesFromOrigin += Int64(count) }
        fetched.increment(by: Int64(count))
    }

    /// Applies `change` to the resource's statistics and the difference to the overall ones.
    @discardableResult
    private func update<Result>(_ key: ResourceKey, _ change: (inout Tally) -> Result) -> Result {
        counts.withLock { counts in
            var tally = counts.resources[key] ?? Tally()
            let before = tally.statistics
            let result = change(&tally)
            counts.resources[key] = tally
            counts.overall.add(tally.statistics, minus: before)
            return result
        }
    }
}

extension CacheStatistics {
    fileprivate mutating func add(_ after: CacheStatistics, minus before: CacheStatistics) {
        bytesFromCache += after.bytesFromCache - before.bytesFromCache
        bytesFromNetwork += after.bytesFromNetwork - before.bytesFromNetwork
        bytesFromOrigin += after.bytesFromOrigin - before.bytesFromOrigin
        bytesPreloaded += after.bytesPreloaded - before.bytesPreloaded
        bytesPreloadedPlayed += after.bytesPreloadedPlayed - before.bytesPreloadedPlayed
    }
}

import CoreMetrics

/// Counts the bytes a loader serves and fetches, in memory for ``CacheStatistics`` and as
/// swift-metrics counters (`mediacache_served_bytes_total{source}`,
/// `mediacache_origin_bytes_total`) for whatever metrics backend the process uses.
final class StatisticsRecorder: Sendable {
    private let counts = Locked(CacheStatistics())
    private let servedFromCache: Counter
    private let servedFromNetwork: Counter
    private let fetched: Counter

    init(factory: (any MetricsFactory)?) {
        func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
            factory.map { Counter(label: label, dimensions: dimensions, factory: $0) }
                ?? Counter(label: label, dimensions: dimensions)
        }
        servedFromCache = counter("mediacache_served_bytes_total", [("source", "cache")])
        servedFromNetwork = counter("mediacache_served_bytes_total", [("source", "network")])
        fetched = counter("mediacache_origin_bytes_total")
    }

    var snapshot: CacheStatistics { counts.withLock { $0 } }

    func served(_ chunk: ByteChunk) {
        let count = Int64(chunk.bytes.count)
        switch chunk.source {
        case .cache:
            counts.withLock { $0.bytesFromCache += count }
            servedFromCache.increment(by: count)
        case .network:
            counts.withLock { $0.bytesFromNetwork += count }
            servedFromNetwork.increment(by: count)
        }
    }

    func fetchedFromOrigin(_ count: Int) {
        counts.withLock { $0.bytesFromOrigin += Int64(count) }
        fetched.increment(by: Int64(count))
    }
}

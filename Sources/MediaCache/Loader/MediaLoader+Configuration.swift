import CoreMetrics
import Logging

extension MediaLoader {
    /// How a ``MediaLoader`` reads, coalesces and retries.
    public struct Configuration: Sendable {
        /// The largest chunk a reader receives at once; memory per reader is bounded by it.
        /// Default: 64 KiB.
        public var chunkSize = 64 << 10
        /// A reader waits on a running fetch whose next byte is at most this far before the
        /// reader's offset, rather than starting its own. Default: 512 KiB (about half a second of
        /// a 8 Mbit/s stream).
        public var coalescingDistance: Int64 = 512 << 10
        /// How far beyond the furthest reader a new open-ended fetch asks the origin for. What is
        /// asked for is what the origin may send even if the reader leaves at once, so it starts
        /// small and grows with what readers consume, and with slow round trips (see
        /// ``readahead`` and ``slowRoundTrip``). Default: 128 KiB.
        public var initialReadahead: Int64 = 128 << 10
        /// The most an open-ended fetch asks for beyond the furthest reader it serves, reached once
        /// its readers consumed sixteen times as much, or sooner on a slow link; the next request
        /// goes out while the reader is still a quarter of it away. Bounds the bytes fetched for a
        /// reader that stops reading, or whose cancel never arrives. Default: 4 MiB.
        public var readahead: Int64 = 4 << 20
        /// A reader that waits longer than this for an origin request to be answered shows that
        /// the lead does not cover the link's round trip: the resource's leads double. Shorter
        /// waits do not matter to a player and, on a fast link, more lead would only be more bytes
        /// a seek throws away. Default: 10 ms.
        public var slowRoundTrip: Duration = .milliseconds(10)
        /// The most bytes one origin request asks for; a bounded read longer than this is asked
        /// for in several requests, two at a time. Default: 8 MiB.
        public var requestWindow: Int64 = 8 << 20
        /// How long a fetch nobody waits on any more goes on receiving what it already asked for
        /// (the origin sent most of it already; thrown away, it would be fetched again). A reader
        /// that comes back for those bytes within this time waits on the fetch rather than starting
        /// another. Default: 1 s.
        public var drainTimeout: Duration = .seconds(1)
        /// How long a playback reader that reaches a gap straight from at least ``chunkSize`` cached
        /// bytes waits before the gap is fetched. Served from the cache, the reader is ahead of its
        /// player by what the sockets in between hold (hundreds of kilobytes); a player that stops
        /// within those bytes, as a replay of the same session does, has gone away by then, and its
        /// replay costs the origin nothing. The player, which still has those bytes to play, does
        /// not notice. After fewer cached bytes (a content probe's two) the gap is fetched at once.
        /// Default: 50 ms.
        public var gapDelayAfterCache: Duration = .milliseconds(50)
        /// How transfers that drop or fail transiently are retried. Default: 5 attempts.
        public var retry = RetryPolicy.exponential(attempts: 5, initial: .milliseconds(100), maximum: .seconds(2))
        /// The clock retries wait on. Default: ``SystemClock``.
        public var clock: any MediaCacheClock = SystemClock()
        /// Where the loader reports retries and failures.
        public var logger = Logger(label: "mediacache.loader")
        /// Where the byte counters (`mediacache_served_bytes_total`, `mediacache_origin_bytes_total`)
        /// are reported; `nil` uses the process's bootstrapped `MetricsSystem`. Default: `nil`.
        public var metricsFactory: (any MetricsFactory)?

        /// Creates the default configuration.
        public init() {}
    }
}

/// How often, and after how long, a failed transfer is tried again.
///
/// Attempts count consecutive failures without progress: a transfer that delivered bytes
/// before it dropped starts counting again.
///
/// ```swift
/// configuration.retry = .exponential(attempts: 8, initial: .milliseconds(250), maximum: .seconds(5))
/// configuration.retry = .never
/// ```
public struct RetryPolicy: Hashable, Sendable {
    /// Tries in all, the first one included; 1 never retries.
    public var attempts: Int
    /// The wait before the first retry; each later one waits twice as long.
    public var initialDelay: Duration
    /// The longest wait between two tries.
    public var maximumDelay: Duration

    /// Up to `attempts` tries, waiting `initial`, then twice as long each time, at most `maximum`.
    public static func exponential(attempts: Int, initial: Duration, maximum: Duration) -> Self {
        Self(attempts: attempts, initialDelay: initial, maximumDelay: maximum)
    }

    /// Never retry.
    public static let never = Self(attempts: 1, initialDelay: .zero, maximumDelay: .zero)

    /// The wait before try number `attempt` (2 for the first retry), or `nil` to give up.
    func delay(beforeAttempt attempt: Int) -> Duration? {
        guard attempt <= attempts else { return nil }
        let factor = 1 << min(max(attempt - 2, 0), 20)
        return min(initialDelay * factor, maximumDelay)
    }
}

/// The former name of ``MediaLoader/Configuration``.
@available(*, deprecated, renamed: "MediaLoader.Configuration")
public typealias LoaderConfiguration = MediaLoader.Configuration

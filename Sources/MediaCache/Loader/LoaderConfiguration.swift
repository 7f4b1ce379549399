import CoreMetrics
import Logging

/// How a ``MediaLoader`` reads, coalesces and retries.
public struct LoaderConfiguration: Sendable {
    /// The largest chunk a reader receives at once; memory per reader is bounded by it.
    /// Default: 64 KiB.
    public var chunkSize = 64 << 10
    /// A reader waits on a running fetch whose next byte is at most this far before the
    /// reader's offset, rather than starting its own. Default: 512 KiB (about half a second of
    /// a 8 Mbit/s stream).
    public var coalescingDistance: Int64 = 512 << 10
    /// How far a fetch may run ahead of the furthest reader it serves before it pauses (the
    /// origin is then held back by TCP flow control). Bounds the bytes fetched for a reader that
    /// stops reading, or whose cancel never arrives. Default: 4 MiB.
    public var readahead: Int64 = 4 << 20
    /// The most bytes one origin request asks for; a longer fetch goes on with further requests
    /// while a reader still needs it. Bounds what a cancelled or paused transfer can have in
    /// flight (socket buffers hold megabytes). Default: 8 MiB.
    public var requestWindow: Int64 = 8 << 20
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

/// How often, and after how long, a failed transfer is tried again.
///
/// Attempts count consecutive failures without progress: a transfer that delivered bytes
/// before it dropped starts counting again.
public enum RetryPolicy: Hashable, Sendable {
    /// Never retry.
    case never
    /// Up to `attempts` tries, waiting `initial`, then twice as long each time, at most `maximum`.
    case exponential(attempts: Int, initial: Duration, maximum: Duration)

    /// The wait before try number `attempt` (2 for the first retry), or `nil` to give up.
    func delay(beforeAttempt attempt: Int) -> Duration? {
        switch self {
        case .never:
            return nil
        case .exponential(let attempts, let initial, let maximum):
            guard attempt <= attempts else { return nil }
            let factor = 1 << min(attempt - 2, 20)
            return min(initial * factor, maximum)
        }
    }
}

import Foundation

/// What a preload of one resource is doing, as ``Preloader/jobs`` and
/// ``Preloader/updates()`` report it.
///
/// ```swift
/// for await job in await preloader.updates() where job.state == .finished {
///     print("\(job.url) is ready: \(job.bytesDone) bytes")
/// }
/// ```
public struct PreloadJob: Hashable, Sendable, Codable {
    /// Where a job is in its life.
    public enum State: String, Hashable, Sendable, Codable {
        /// Waiting for a free slot.
        case queued
        /// Fetching (or paused while a player waits for the network).
        case running
        /// Every byte of the target is cached.
        case finished
        /// Stopped by an error; see ``PreloadJob/error``.
        case failed
        /// Cancelled before it finished.
        case cancelled

        /// Whether the job has ended.
        public var isFinal: Bool { self == .finished || self == .failed || self == .cancelled }
    }

    /// The resource.
    public var url: URL
    /// The resource's cache key.
    public var key: ResourceKey
    /// How much is preloaded.
    public var amount: PreloadAmount
    /// The rank; higher runs first.
    public var priority: Int
    /// Where the job is.
    public var state: State
    /// How the amount maps to bytes, such as `mp4 sample tables` or `estimate at 4000000 bit/s`,
    /// once planned.
    public var method: String?
    /// The bytes to have cached, once planned; `nil` before, or for `.full` of a resource of
    /// unknown length.
    public var bytesTarget: Int64?
    /// The bytes of the target cached so far.
    public var bytesDone: Int64
    /// Why the job failed, or why seconds were estimated rather than read from the container.
    public var error: String?

    /// Creates a report.
    public init(
        url: URL, key: ResourceKey, amount: PreloadAmount, priority: Int, state: State, method: String? = nil,
        bytesTarget: Int64? = nil, bytesDone: Int64 = 0, error: String? = nil
    ) {
        self.url = url
        self.key = key
        self.amount = amount
        self.priority = priority
        self.state = state
        self.method = method
        self.bytesTarget = bytesTarget
        self.bytesDone = bytesDone
        self.error = error
    }

    /// The share of the target cached, from 0 to 1, once the target is known.
    public var fractionDone: Double? {
        guard let bytesTarget else { return state == .finished ? 1 : nil }
        return bytesTarget == 0 ? 1 : Double(bytesDone) / Double(bytesTarget)
    }
}

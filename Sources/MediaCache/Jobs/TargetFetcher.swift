import Foundation

/// How a job fetches: what it reads for, how it yields to playback, how it retries and how
/// often it makes its bytes durable. Preloads and downloads are two such policies.
package struct FetchPolicy: Sendable {
    /// What the reads are counted as.
    package var purpose: ReadPurpose
    /// The most bytes read between two waits for quiet playback; `nil` waits once per read.
    package var step: Int64?
    /// How long no player must have waited for the network before a read starts.
    package var quietPeriod: Duration
    /// Tries of one target without progress before the job fails; 1 never retries.
    package var attempts = 1
    /// The wait after a failed try, doubled each time up to ``maximumBackoff``.
    package var initialBackoff: Duration = .milliseconds(200)
    package var maximumBackoff: Duration = .seconds(5)
    /// Bytes stored between commits of the store, so that a power loss costs at most these
    /// again; `nil` leaves commits to the store.
    package var commitStep: Int64?

    package init(purpose: ReadPurpose, step: Int64? = nil, quietPeriod: Duration) {
        self.purpose = purpose
        self.step = step
        self.quietPeriod = quietPeriod
    }
}

/// Fetches what targets still lack through the loader, as a ``FetchPolicy`` says: the one
/// place that compares a job's targets with the store, waits for quiet playback, reads, counts
/// progress and retries, for preloads and downloads alike.
package struct TargetFetcher: Sendable {
    package let loader: MediaLoader
    package let policy: FetchPolicy

    package init(loader: MediaLoader, policy: FetchPolicy) {
        self.loader = loader
        self.policy = policy
    }

    /// The reads that would store what `target` still lacks: the gaps of its ranges, or of the
    /// whole resource when its length is known; otherwise everything from the first byte not
    /// stored, to the end.
    package func missing(_ target: PreloadTarget) -> [ByteRequest] {
        let record = loader.storedRecord(for: target.url)
        let available = record?.available ?? ByteRangeSet()
        if let ranges = target.ranges {
            return ranges.ranges.flatMap { available.gaps(in: $0) }.map { ByteRequest($0) }
        }
        guard let record, let length = record.contentInfo.totalLength else {
            // Every byte is wanted: once the first arrived, the fetch asks for its largest lead.
            return [ByteRequest(offset: available.contiguousLength(from: 0), takesAll: true)]
        }
        return available.gaps(in: ByteRange(0, length)).map { ByteRequest($0) }
    }

    /// Bytes of `target` stored.
    package func storedBytes(_ target: PreloadTarget) -> Int64 {
        let available = loader.storedRecord(for: target.url)?.available ?? ByteRangeSet()
        guard let ranges = target.ranges else { return available.coveredLength }
        return ranges.ranges.reduce(0) { total, range in total + range.length - available.gaps(in: range).reduce(0) { $0 + $1.length } }
    }

    /// Fetches what `target` lacks, reporting each count of bytes stored to `progress`: every
    /// chunk, or with a commit step every commit. A failed try is retried with backoff as the
    /// policy allows, the count of tries starting again after any progress; a full disk is
    /// never retried.
    package func fetch(_ target: PreloadTarget, progress: @Sendable (Int64) async throws -> Void) async throws {
        var failures = 0
        while true {
            let requests = missing(target)
            if requests.isEmpty { return }
            var progressed = false
            do {
                for request in requests {
                    for step in steps(of: request) {
                        try await loader.playback.waitUntilQuiet(for: policy.quietPeriod)
                        var pending: Int64 = 0
                        for try await chunk in loader.read(target.url, step, purpose: policy.purpose) {
                            progressed = true
                            pending += Int64(chunk.bytes.count)
                            if pending >= policy.commitStep ?? 0 {
                                try await record(pending, progress: progress)
                                pending = 0
                            }
                        }
                        try await record(pending, progress: progress)
                    }
                }
                return
            } catch {
                if Task.isCancelled { throw CancellationError() }
                // Retrying cannot make room: every try would fetch bytes only to lose them.
                if error.fullDisk != nil { throw error }
                failures = progressed ? 1 : failures + 1
                guard failures < policy.attempts else { throw error }
                try await Task.sleep(for: min(policy.initialBackoff * (1 << min(failures - 1, 16)), policy.maximumBackoff))
            }
        }
    }

    /// `request` cut into reads of at most ``FetchPolicy/step`` bytes, when it has a length.
    private func steps(of request: ByteRequest) -> [ByteRequest] {
        guard let step = policy.step, let end = request.end else { return [request] }
        return stride(from: request.offset, to: end, by: Int(step)).map { ByteRequest(ByteRange($0, min($0 + step, end))) }
    }

    /// Makes `count` stored bytes durable when the policy commits, and reports them.
    private func record(_ count: Int64, progress: @Sendable (Int64) async throws -> Void) async throws {
        guard count > 0 else { return }
        if policy.commitStep != nil { try loader.store.commit() }
        try await progress(count)
    }
}

extension Error {
    /// The store's full-disk failure this is or carries (a loader's store failure), `nil` for
    /// any other error.
    package var fullDisk: MediaStoreError? {
        let store = self as? MediaStoreError ?? (self as? LoaderError)?.store
        return store?.isDiskFull == true ? store : nil
    }
}

import Foundation
import MediaCache

extension DownloadManager {
    /// Plans, checks space, fetches what is missing in parallel, and verifies.
    func run(_ id: String) async {
        do {
            try await perform(id)
            ended(id, failure: nil)
        } catch {
            // A pause or a removal cancelled the run and recorded it already.
            if Task.isCancelled { return }
            ended(id, failure: "\(Self.diskFull(in: error) ?? error)")
        }
    }

    private func perform(_ id: String) async throws {
        guard let download = records[id] else { return }
        let (plan, resolved) = try await self.plan(download)
        timeIndexes[id] = plan.timeIndex
        let playlistBytes = plan.playlists.reduce(0) { $0 + storedBytes(PreloadTarget(url: $1)) }
        var done = playlistBytes
        var segmentsDone = 0
        var stored: [DownloadPlan.Span] = []
        for unit in plan.units {
            done += storedBytes(unit.target)
            guard missing(unit.target).isEmpty else { continue }
            if unit.isSegment { segmentsDone += 1 }
            stored += unit.spans
        }
        let isExact = plan.units.allSatisfy { $0.target.ranges != nil }
        let exact = isExact ? plan.units.compactMap(\.target.ranges?.coveredLength).reduce(playlistBytes, +) : nil
        let expected = exact ?? plan.estimatedBytes.map { max($0, done) }
        update(id) { download in
            download.resolved = resolved
            download.isFile = resolved == nil
            download.segmentCount = plan.segmentCount
            download.durationSeconds = plan.duration
            download.segmentsDone = segmentsDone
            download.renditions = plan.renditions
            download.loadedSeconds = 0
            download.load(stored)
            download.bytesDone = done
            download.bytesExpected = expected
            download.expectedIsEstimate = exact == nil
        }
        if let expected, let free = configuration.freeSpace(store.directory), expected - done > free {
            throw DownloadError.insufficientSpace(needed: expected - done, available: free)
        }
        try store.addDownloadMembers(plan.playlists.map(store.key(for:)), to: id)
        let pending = plan.units.filter { !missing($0.target).isEmpty }
        try await withThrowingTaskGroup(of: DownloadPlan.Unit.self) { group in
            var next = pending.makeIterator()
            func addNext() {
                guard let unit = next.next() else { return }
                group.addTask { try await self.fetch(unit, for: id) }
            }
            for _ in 0..<configuration.parallelResources { addNext() }
            while let unit = try await group.next() {
                try store.addDownloadMembers([store.key(for: unit.target.url)], to: id)
                update(id) { download in
                    if unit.isSegment { download.segmentsDone += 1 }
                    download.load(unit.spans)
                }
                addNext()
            }
        }
        try store.addDownloadMembers(plan.units.map { store.key(for: $0.target.url) }, to: id)
        let incomplete = (plan.playlists.map { PreloadTarget(url: $0) } + plan.units.map(\.target)).filter { !missing($0).isEmpty }
        guard incomplete.isEmpty else { throw DownloadError.incomplete(incomplete.map(\.url)) }
        update(id) { download in
            download.bytesExpected = download.bytesDone
            download.expectedIsEstimate = false
        }
    }

    /// Fetches what of `unit` is missing, after playback has been quiet; a failed try is
    /// retried with backoff, and the count of tries starts again after any progress.
    private nonisolated func fetch(_ unit: DownloadPlan.Unit, for id: String) async throws -> DownloadPlan.Unit {
        var failures = 0
        while true {
            let requests = await missing(unit.target)
            if requests.isEmpty { return unit }
            var progressed = false
            do {
                for request in requests {
                    try await loader.playback.waitUntilQuiet(for: configuration.playbackQuietPeriod)
                    var pending: Int64 = 0
                    for try await chunk in loader.read(unit.target.url, request, purpose: .download) {
                        progressed = true
                        pending += Int64(chunk.bytes.count)
                        if pending >= Self.commitStep {
                            try await recordProgress(pending, of: id)
                            pending = 0
                        }
                    }
                    try await recordProgress(pending, of: id)
                }
            } catch {
                if Task.isCancelled { throw CancellationError() }
                // Retrying cannot make room: every try would fetch bytes only to lose them.
                if let full = Self.diskFull(in: error) { throw full }
                failures = progressed ? 1 : failures + 1
                guard failures < configuration.attempts else {
                    throw DownloadError.resourceFailed(unit.target.url, reason: "\(error)")
                }
                let delay = min(configuration.initialBackoff * (1 << min(failures - 1, 16)), configuration.maximumBackoff)
                try await Task.sleep(for: delay)
            }
        }
    }

    /// ``DownloadError/diskFull(key:underlying:)`` when `error` is or carries a full disk.
    private static func diskFull(in error: any Error) -> DownloadError? {
        switch error {
        case MediaStoreError.diskFull(let key, let underlying), LoaderError.store(.diskFull(let key, let underlying)):
            .diskFull(key: key, underlying: underlying)
        case let error as DownloadError: if case .diskFull = error { error } else { nil }
        default: nil
        }
    }

    /// Bytes a transfer stores between commits: what a power loss can cost a download again
    /// (a killed process costs nothing; the store's journal keeps what it wrote).
    static let commitStep: Int64 = 256 << 10

    /// Makes `count` more bytes of download `id` durable (so that even a power loss never
    /// fetches them again) and counts them.
    private func recordProgress(_ count: Int64, of id: String) throws {
        guard count > 0 else { return }
        try store.commit()
        update(id) { $0.bytesDone += count }
    }

    /// The reads that would store what `target` still lacks.
    func missing(_ target: PreloadTarget) -> [ByteRequest] {
        let record = try? store.record(for: store.key(for: target.url))
        let available = record?.available ?? ByteRangeSet()
        if let ranges = target.ranges {
            return ranges.ranges.flatMap { available.gaps(in: $0) }.map { ByteRequest($0) }
        }
        guard let record, let length = record.contentInfo.totalLength else {
            // A download takes every byte: once the first arrived, the fetch asks for its largest lead.
            return [ByteRequest(offset: available.contiguousLength(from: 0), takesAll: true)]
        }
        return available.gaps(in: ByteRange(0, length)).map { ByteRequest($0) }
    }

    /// Bytes of `target` stored.
    func storedBytes(_ target: PreloadTarget) -> Int64 {
        let available = (try? store.availableRanges(for: store.key(for: target.url))) ?? ByteRangeSet()
        guard let ranges = target.ranges else { return available.coveredLength }
        return ranges.ranges.reduce(0) { total, range in total + range.length - available.gaps(in: range).reduce(0) { $0 + $1.length } }
    }
}

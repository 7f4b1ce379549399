import Foundation

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
        let playlistBytes = plan.playlists.reduce(0) { $0 + fetcher.storedBytes(PreloadTarget(url: $1)) }
        var done = playlistBytes
        var segmentsDone = 0
        var stored: [DownloadPlan.Span] = []
        for unit in plan.units {
            done += fetcher.storedBytes(unit.target)
            guard fetcher.missing(unit.target).isEmpty else { continue }
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
        let pending = plan.units.filter { !fetcher.missing($0.target).isEmpty }
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
        let incomplete = (plan.playlists.map { PreloadTarget(url: $0) } + plan.units.map(\.target)).filter { !fetcher.missing($0).isEmpty }
        guard incomplete.isEmpty else { throw DownloadError.incomplete(incomplete.map(\.url)) }
        update(id) { download in
            download.bytesExpected = download.bytesDone
            download.expectedIsEstimate = false
        }
    }

    /// Fetches what of `unit` is missing (see ``TargetFetcher``), counting the bytes as they are
    /// made durable.
    private nonisolated func fetch(_ unit: DownloadPlan.Unit, for id: String) async throws -> DownloadPlan.Unit {
        do {
            try await fetcher.fetch(unit.target) { count in await self.update(id) { $0.bytesDone += count } }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if let full = Self.diskFull(in: error) { throw full }
            throw DownloadError.resourceFailed(unit.target.url, reason: "\(error)")
        }
        return unit
    }

    /// ``DownloadError/diskFull(_:)`` when `error` is or carries a full disk.
    private static func diskFull(in error: any Error) -> DownloadError? {
        if let error = error as? DownloadError { return error.code == .diskFull ? error : nil }
        return error.fullDisk.map(DownloadError.diskFull)
    }

    /// Bytes a transfer stores between commits: what a power loss can cost a download again
    /// (a killed process costs nothing; the store's journal keeps what it wrote).
    static let commitStep: Int64 = 256 << 10
}

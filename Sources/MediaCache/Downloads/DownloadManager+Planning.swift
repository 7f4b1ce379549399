import Foundation

extension DownloadManager {
    /// What `download` fetches: the first plan of the configured planners (for an HLS
    /// presentation, the selection resolved and every segment, key and init section of the
    /// chosen playlists), otherwise the file.
    /// Refuses `selection` of `url` when the presentation lacks what it names, as the first
    /// planner that plans `url` finds; a file has no renditions to choose. A selection that
    /// names no language and no bandwidth or resolution fits every presentation, and costs no
    /// request here.
    func check(_ selection: DownloadSelection, of url: URL) async throws {
        guard selection.namesSomething else { return }
        for planner in configuration.planners where try await planner.check(selection, of: url, loader: loader) { return }
        try selection.checkAlone()
    }

    func plan(_ download: Download) async throws -> (DownloadPlan, ResolvedSelection?) {
        for planner in configuration.planners {
            if let (plan, resolved) = try await planner.plan(download, loader: loader) { return (plan, resolved) }
        }
        let record = try await loader.contentRecord(for: download.url, purpose: .download)
        let ranges = record.contentInfo.totalLength.map { ByteRangeSet([ByteRange(0, $0)]) }
        let unit = DownloadPlan.Unit(target: PreloadTarget(url: download.url, ranges: ranges), spans: [], isSegment: true)
        var plan = DownloadPlan(playlists: [], units: [unit], duration: 0, estimatedBytes: record.contentInfo.totalLength)
        // An MP4 or MP3 says how long it plays, and which of its bytes play which seconds.
        if let index = try? await loader.timeIndex(of: download.url, purpose: .download), let duration = index.duration {
            plan.duration = duration
            plan.timeIndex = index
            plan.renditions = [
                RenditionProgress(
                    url: download.url, kind: .media, name: download.url.lastPathComponent,
                    language: nil, expected: 0..<duration, loaded: [])
            ]
        }
        return (plan, nil)
    }
}

import Foundation
import MediaCache

extension DownloadManager {
    /// What `download` fetches: for a playlist, the selection resolved (added to what was
    /// resolved before) and every segment, key and init section of the chosen playlists; for a
    /// file, the file.
    func plan(_ download: Download) async throws -> (DownloadPlan, ResolvedSelection?) {
        let record = try await loader.contentRecord(for: download.url, purpose: .download)
        guard await PlaylistDetection.isPlaylist(download.url, info: record.contentInfo, loader: loader, purpose: .download) else {
            let ranges = record.contentInfo.totalLength.map { ByteRangeSet([ByteRange(0, $0)]) }
            let unit = DownloadPlan.Unit(target: PreloadTarget(url: download.url, ranges: ranges), spans: [], isSegment: true)
            var plan = DownloadPlan(playlists: [], units: [unit], duration: 0, estimatedBytes: record.contentInfo.totalLength)
            // An MP4 or MP3 says how long it plays, and which of its bytes play which seconds.
            if let index = try? await loader.timeIndex(of: download.url, purpose: .download), let duration = index.duration {
                plan.duration = duration
                plan.timeIndex = index
                plan.renditions = [RenditionProgress(url: download.url, kind: .media, name: download.url.lastPathComponent,
                                                     language: nil, expected: 0..<duration, loaded: [])]
            }
            return (plan, nil)
        }
        let top = try await playlists.read(download.url, purpose: .download)
        var resolved: ResolvedSelection
        if top.playlist.isMultivariant {
            resolved = try download.selection.resolve(in: MultivariantPlaylist(top.playlist), base: top.base)
            if let earlier = download.resolved { resolved = earlier.merged(with: resolved) }
        } else {
            resolved = DownloadSelection.alone(download.url)
        }
        var playlistURLs = [download.url]
        var units: [DownloadPlan.Unit] = []
        var positions: [URL: Int] = [:]
        var renditions: [RenditionProgress] = []
        for selected in resolved.playlists {
            let read = selected.url == download.url
                ? top : try await playlists.read(selected.url, purpose: .download)
            let media = try MediaPlaylist(read.playlist)
            guard media.isFinished else { throw DownloadError.live(selected.url) }
            playlistURLs.append(selected.url)
            renditions.append(RenditionProgress(url: selected.url, kind: selected.kind, name: selected.name, language: selected.language,
                                                expected: 0..<media.duration, loaded: []))
            for unit in DownloadPlan.units(of: media, playlist: selected.url, base: read.base) {
                if let position = positions[unit.target.url] {
                    units[position].spans += unit.spans
                } else {
                    positions[unit.target.url] = units.count
                    units.append(unit)
                }
            }
        }
        let duration = renditions.first?.expected.upperBound ?? 0
        let estimate = resolved.variant?.bandwidth.map { Int64(Double($0) * duration / 8) }
        var plan = DownloadPlan(playlists: Array(Set(playlistURLs)), units: units, duration: duration, estimatedBytes: estimate)
        plan.renditions = renditions
        return (plan, resolved)
    }
}

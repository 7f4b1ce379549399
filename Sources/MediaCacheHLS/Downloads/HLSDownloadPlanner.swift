import Foundation
import MediaCache

/// Plans the download of an HLS presentation: the selection resolved against the multivariant
/// playlist (added to what was resolved before), then every segment, key and init section of
/// the chosen media playlists, read through the ``PlaylistSource``. A live playlist cannot be
/// downloaded.
///
/// ```swift
/// let downloads = try await DownloadManager(loader: loader,
///                                           configuration: DownloadManager.Configuration().planningHLS(playlists: playlists))
/// ```
public struct HLSDownloadPlanner: DownloadPlanner {
    /// Where playlists are read.
    public var playlists: PlaylistSource

    /// Creates a planner.
    public init(playlists: PlaylistSource) {
        self.playlists = playlists
    }

    public func check(_ selection: DownloadSelection, of url: URL, loader: MediaLoader) async throws -> Bool {
        guard try await PlaylistDetection.isPlaylist(url, loader: loader, purpose: .download) else { return false }
        let top = try await playlists.read(url, purpose: .download)
        if top.playlist.isMultivariant {
            _ = try selection.resolve(in: MultivariantPlaylist(top.playlist), base: top.base)
        } else {
            try selection.checkAlone()
        }
        return true
    }

    public func plan(_ download: Download, loader: MediaLoader) async throws -> (DownloadPlan, ResolvedSelection)? {
        guard try await PlaylistDetection.isPlaylist(download.url, loader: loader, purpose: .download) else {
            return nil
        }
        let top = try await playlists.read(download.url, purpose: .download)
        var resolved: ResolvedSelection
        if top.playlist.isMultivariant {
            resolved = try download.selection.resolve(in: MultivariantPlaylist(top.playlist), base: top.base)
            if let earlier = download.resolved { resolved = earlier.merged(with: resolved) }
        } else {
            resolved = try DownloadSelection.alone(download.url, selection: download.selection)
        }
        var playlistURLs = [download.url]
        var units: [DownloadPlan.Unit] = []
        var positions: [URL: Int] = [:]
        var renditions: [RenditionProgress] = []
        for selected in resolved.playlists {
            let read =
                selected.url == download.url
                ? top : try await playlists.read(selected.url, purpose: .download)
            let media = try MediaPlaylist(read.playlist)
            guard media.isFinished else { throw DownloadError.live(selected.url) }
            playlistURLs.append(selected.url)
            renditions.append(
                RenditionProgress(
                    url: selected.url, kind: selected.kind, name: selected.name, language: selected.language,
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

extension DownloadManager.Configuration {
    /// This configuration with an ``HLSDownloadPlanner`` reading through `playlists` after its
    /// planners, unless it has one.
    public func planningHLS(playlists: PlaylistSource) -> DownloadManager.Configuration {
        guard !planners.contains(where: { $0 is HLSDownloadPlanner }) else { return self }
        var configuration = self
        configuration.planners.append(HLSDownloadPlanner(playlists: playlists))
        return configuration
    }
}

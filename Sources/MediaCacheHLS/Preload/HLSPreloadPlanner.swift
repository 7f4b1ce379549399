import Foundation
import MediaCache

/// Preloads an HLS playlist as a player would start it: the multivariant playlist and every
/// media playlist it lists (they are small, and players read them all), then, for the variant
/// a player starts with (see `preload(_:amount:priority:maximumBandwidth:)`) and
/// its default audio and subtitle renditions, the segments covering the first seconds asked
/// for, with their keys and init sections, and the first segment of every other variant and
/// audio or video rendition, which players such as ffmpeg read when they open a presentation.
/// Everything is recorded as one asset.
///
/// ```swift
/// var configuration = Preloader.Configuration()
/// configuration.planners = [HLSPreloadPlanner(playlists: PlaylistSource(store: store, loader: loader))]
/// let preloader = Preloader(loader: loader, configuration: configuration)
/// await preloader.preload(masterURL, amount: .seconds(6), maximumBandwidth: 3_000_000)
/// ```
public struct HLSPreloadPlanner: PreloadPlanner {
    /// Where playlists are read.
    public var playlists: PlaylistSource
    /// The bitrate a byte amount is turned into seconds with when the playlist names none
    /// (a media playlist alone), in bits per second. Default: 4 Mbit/s.
    public var assumedBitrate: Double

    /// Creates a planner.
    public init(playlists: PlaylistSource, assumedBitrate: Double = 4_000_000) {
        self.playlists = playlists
        self.assumedBitrate = assumedBitrate
    }

    public func plan(_ amount: PreloadAmount, of url: URL, maximumBandwidth: Int?, loader: MediaLoader) async throws -> PreloadPlan? {
        guard try await PlaylistDetection.isPlaylist(url, loader: loader, purpose: .preload) else {
            return nil
        }
        let top = try await playlists.read(url, purpose: .preload)
        guard top.playlist.isMultivariant else {
            let seconds = Self.seconds(amount, bitrate: assumedBitrate)
            let targets = try MediaPlaylist(top.playlist).preloadTargets(forFirst: seconds, base: top.base)
            return PreloadPlan(targets: targets, method: "HLS media playlist, \(Self.describe(seconds))")
        }
        let multivariant = try MultivariantPlaylist(top.playlist)
        guard let start = HLSStart(multivariant, maximumBandwidth: maximumBandwidth) else {
            throw PlaylistError(line: 1, tag: nil, reason: "the multivariant playlist lists no variant")
        }
        let seconds = Self.seconds(amount, bitrate: Double(start.variant.bandwidth))
        let chosen = start.playlists(base: top.base)
        var targets: [PreloadTarget] = []
        for playlist in multivariant.assetPlaylists(base: top.base) where playlist.kind != .iFrame {
            let media = try await playlists.read(playlist.url, purpose: .preload)
            let isChosen = chosen.contains { $0.url == playlist.url }
            guard isChosen || playlist.kind != .subtitles else { continue }
            // Any duration above zero is the first segment.
            targets += try MediaPlaylist(media.playlist).preloadTargets(
                forFirst: isChosen ? seconds : .leastNonzeroMagnitude,
                base: media.base)
        }
        let names = chosen.map(\.name).joined(separator: " + ")
        return PreloadPlan(targets: targets, method: "HLS \(names), \(Self.describe(seconds))")
    }

    /// The seconds `amount` asks for; bytes at `bitrate`.
    static func seconds(_ amount: PreloadAmount, bitrate: Double) -> Double {
        switch amount {
        case .seconds(let seconds): seconds
        case .bytes(let count): Double(count) * 8 / max(bitrate, 1)
        case .full: .infinity
        }
    }

    static func describe(_ seconds: Double) -> String {
        seconds.isFinite ? String(format: "first %g s", seconds) : "every segment"
    }
}

extension Preloader.Configuration {
    /// This configuration with an ``HLSPreloadPlanner`` reading through `playlists` after its
    /// planners, unless it has one.
    public func planningHLS(playlists: PlaylistSource) -> Preloader.Configuration {
        guard !planners.contains(where: { $0 is HLSPreloadPlanner }) else { return self }
        var configuration = self
        configuration.planners.append(HLSPreloadPlanner(playlists: playlists, assumedBitrate: assumedBitrate))
        return configuration
    }
}

import Foundation

/// Plans preloads of URLs that are more than one resource, such as HLS playlists
/// (`MediaCacheHLS`'s `HLSPreloadPlanner`). A ``Preloader`` asks its planners in order; the
/// first plan wins, and without one the URL is preloaded as one resource.
public protocol PreloadPlanner: Sendable {
    /// The plan for `amount` of `url`, or `nil` to leave the URL to the next planner.
    ///
    /// - Parameters:
    ///   - amount: How much to preload.
    ///   - url: The resource to preload.
    ///   - maximumBandwidth: The bits per second the player may use, to choose among
    ///     variants; `nil` for what a player starts with.
    ///   - loader: The loader to read what planning needs through (with
    ///     ``ReadPurpose/preload``), so that it is cached too.
    func plan(_ amount: PreloadAmount, of url: URL, maximumBandwidth: Int?, loader: MediaLoader) async throws -> PreloadPlan?
}

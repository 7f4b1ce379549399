import Foundation

/// Plans preloads of URLs that are more than one resource, such as HLS playlists
/// (`MediaCacheHLS`'s `HLSPreloadPlanner`). A ``Preloader`` asks its planners in order; the
/// first plan wins, and without one the URL is preloaded as one resource.
///
/// ```swift
/// /// Preloads a clip's poster with its first 512 KiB.
/// struct PosterPlanner: PreloadPlanner {
///     func plan(_ amount: PreloadAmount, of url: URL, maximumBandwidth: Int?, loader: MediaLoader) async throws -> PreloadPlan? {
///         guard url.pathExtension == "mp4" else { return nil }
///         let poster = url.deletingPathExtension().appendingPathExtension("jpg")
///         return PreloadPlan(
///             targets: [PreloadTarget(url: poster), PreloadTarget(url: url, ranges: [ByteRange(0, 512 << 10)])],
///             method: "poster and the first 512 KiB")
///     }
/// }
///
/// var configuration = Preloader.Configuration()
/// configuration.planners = [PosterPlanner()]
/// ```
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

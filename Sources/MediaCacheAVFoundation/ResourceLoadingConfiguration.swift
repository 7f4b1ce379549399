/// How ``CachingPlayerItem``'s resource loader serves AVPlayer.
///
/// ```swift
/// var configuration = PlaybackCache.Configuration()
/// configuration.resourceLoading.supersededAllowance = 1 << 20
/// let cache = PlaybackCache(configuration: configuration)
/// ```
public struct ResourceLoadingConfiguration: Sendable {
    /// The most bytes a request for "everything to the end" still gets once a newer data
    /// request of the same asset has arrived, unless AVPlayer cancels it first; then it stops
    /// fetching and stays open until AVPlayer cancels it or the asset goes. Bounds the work of a
    /// request whose cancel never arrives. `nil` serves every request to its end. Default: 4 MiB.
    public var supersededAllowance: Int64? = 4 << 20

    /// Creates the default configuration.
    public init() {}
}

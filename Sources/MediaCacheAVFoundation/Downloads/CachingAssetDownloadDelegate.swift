import Foundation
import MediaCache
import MediaCacheHLS

/// What a ``ForegroundAssetDownloadSession`` tells its delegate, in the shape of
/// `AVAssetDownloadDelegate`. Every method has an empty default; calls come on no particular
/// thread, one at a time per session. There is no `willDownloadTo`: a download's bytes live in
/// the cache, with no location of its own to keep or delete.
public protocol CachingAssetDownloadDelegate: AnyObject, Sendable {
    /// The selection resolved against the playlist, automatic choices included.
    func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didResolve selection: ResolvedSelection)
    /// Progress of the primary rendition: `timeRange` newly stored, all of them, and the range
    /// expected, in seconds.
    func session(
        _ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didLoad timeRange: Range<Double>,
        totalTimeRangesLoaded loadedTimeRanges: [Range<Double>], timeRangeExpectedToLoad: Range<Double>)
    /// The download completed (`error` is `nil`), failed, or was cancelled
    /// (``CachingAssetDownloadError/cancelled``).
    func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didCompleteWithError error: (any Error)?)
}

extension CachingAssetDownloadDelegate {
    public func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didResolve selection: ResolvedSelection)
    {}
    public func session(
        _ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didLoad timeRange: Range<Double>,
        totalTimeRangesLoaded loadedTimeRanges: [Range<Double>], timeRangeExpectedToLoad: Range<Double>
    ) {}
    public func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didCompleteWithError error: (any Error)?)
    {}
}

/// Why a download task ended without completing.
public enum CachingAssetDownloadError: Error, Hashable, CustomStringConvertible {
    /// ``CachingAssetDownloadTask/cancel()`` removed it.
    case cancelled
    /// It failed, for this reason.
    case failed(String)

    public var description: String {
        switch self {
        case .cancelled: "the download was cancelled"
        case .failed(let reason): reason
        }
    }
}

import Foundation
import MediaCache
import MediaCacheHLS

/// What a ``ForegroundAssetDownloadSession`` tells its delegate, in the shape of
/// `AVAssetDownloadDelegate`. Every method has an empty default; calls come on no particular
/// thread, one at a time per session. There is no `willDownloadTo`: a download's bytes live in
/// the cache, with no location of its own to keep or delete.
///
/// ```swift
/// final class Downloads: CachingAssetDownloadDelegate {
///     func session(
///         _ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didLoad timeRange: Range<Double>,
///         totalTimeRangesLoaded loadedTimeRanges: [Range<Double>], timeRangeExpectedToLoad: Range<Double>
///     ) {
///         let loaded = loadedTimeRanges.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
///         show(progress: loaded / (timeRangeExpectedToLoad.upperBound - timeRangeExpectedToLoad.lowerBound))
///     }
///
///     func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didCompleteWithError error: (any Error)?) {
///         show(error.map { "\($0)" } ?? "ready offline")
///     }
/// }
/// ```
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
///
/// ```swift
/// func session(_ session: ForegroundAssetDownloadSession, task: CachingAssetDownloadTask, didCompleteWithError error: (any Error)?) {
///     guard let error = error as? CachingAssetDownloadError, error.code != .cancelled else { return }
///     show(error.message)   // the segment that failed and why
/// }
/// ```
public struct CachingAssetDownloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<CachingAssetDownloadError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// ``CachingAssetDownloadTask/cancel()`` removed it.
    public static var cancelled: Self { Self(.cancelled, "the download was cancelled") }

    /// It failed, for this reason.
    public static func failed(_ reason: String) -> Self { Self(.failed, reason) }

    public var description: String { message }
}

extension ErrorCode where Owner == CachingAssetDownloadError {
    /// The task was cancelled.
    public static var cancelled: Self { Self("cancelled") }
    /// The download failed.
    public static var failed: Self { Self("failed") }
}

import Foundation
import MediaCache
import MediaCacheHLS

/// One download, in the shape of `AVAssetDownloadTask`: created suspended by
/// ``ForegroundAssetDownloadSession/makeAssetDownloadTask(downloadConfiguration:)``, started with
/// ``resume()``, paused with ``suspend()``, removed with ``cancel()``.
///
/// ```swift
/// let session = ForegroundAssetDownloadSession(delegate: downloads)
/// let task = try await session.makeAssetDownloadTask(
///     downloadConfiguration: CachingAssetDownloadConfiguration(url: filmURL, title: "Film"))
/// try await task.resume()
/// // later
/// try await task.suspend()
/// player.replaceCurrentItem(with: CachingPlayerItem(asset: task.urlAsset))   // plays what is stored
/// ```
public final class CachingAssetDownloadTask: Sendable, Hashable {
    /// The download's identifier, stable across launches.
    public let taskIdentifier: String
    /// The URL downloaded.
    public let url: URL
    let manager: DownloadManager
    let session: ForegroundAssetDownloadSession

    init(taskIdentifier: String, url: URL, manager: DownloadManager, session: ForegroundAssetDownloadSession) {
        self.taskIdentifier = taskIdentifier
        self.url = url
        self.manager = manager
        self.session = session
    }

    /// An asset that plays the download (through the session's cache, offline once complete).
    public var urlAsset: CachingURLAsset {
        CachingURLAsset(url: url, cache: session.cache)
    }

    /// The download as the manager reports it now.
    public var download: Download? {
        get async { await manager.download(named: taskIdentifier) }
    }

    /// The primary rendition's stored time ranges, in seconds.
    public var loadedTimeRanges: [Range<Double>] {
        get async { await download?.renditions.first?.loaded ?? [] }
    }

    /// Starts or resumes the download.
    public func resume() async throws {
        let state = await download?.state
        if state == .paused || state?.error != nil { try await manager.resume(taskIdentifier) }
    }

    /// Pauses the download; what it stored stays.
    public func suspend() async throws {
        try await manager.pause(taskIdentifier)
    }

    /// Stops and removes the download with its bytes; the delegate hears
    /// ``CachingAssetDownloadError/cancelled``.
    public func cancel() async throws {
        try await manager.remove(taskIdentifier)
        session.cancelled(self)
    }

    public static func == (lhs: CachingAssetDownloadTask, rhs: CachingAssetDownloadTask) -> Bool {
        lhs.taskIdentifier == rhs.taskIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(taskIdentifier)
    }
}

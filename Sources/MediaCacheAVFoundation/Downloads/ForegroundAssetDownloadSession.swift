import Foundation
import MediaCache
import MediaCacheHLS

/// Offline downloads for Apple apps that run while the app runs, in the shape of
/// `AVAssetDownloadURLSession`, over the cache's one `DownloadManager`: HLS with variant and
/// media selections, and files; progress as time ranges per the primary rendition, and in bytes
/// through ``CachingAssetDownloadTask/download``; AES-128 keys are downloaded with the rest. A
/// downloaded asset plays through ``CachingURLAsset`` with the network gone.
///
/// It is not a background session: downloads go on while the app runs (and for the short time
/// iOS lets a backgrounded app run), stop when iOS suspends it, and resume by themselves at the
/// next launch, from what they stored (``allTasks()`` finds them). Use
/// `AVAssetDownloadURLSession` instead for transfers that must go on while the app is
/// suspended or not running, and for FairPlay-protected offline playback.
///
/// A download has no file location of its own to delete: remove it with
/// ``CachingAssetDownloadTask/cancel()`` or ``removeDownload(of:)``, which free its bytes.
///
/// ```swift
/// let session = ForegroundAssetDownloadSession(cache: .shared, delegate: self)
/// var configuration = CachingAssetDownloadConfiguration(url: filmURL, title: "Film")
/// configuration.audio = .languages(["en", "de"])
/// let task = try await session.makeAssetDownloadTask(downloadConfiguration: configuration)
/// try await task.resume()
/// // later, after a relaunch:
/// for task in try await session.allTasks() { try await task.resume() }
/// if await PlaybackCache.shared.isPlayableOffline(filmURL) { player.replaceCurrentItem(with: CachingPlayerItem(url: filmURL)) }
/// ```
public final class ForegroundAssetDownloadSession: Sendable {
    /// What the session reported of each download, so that each event is told once.
    private struct Reported {
        var resolved = false
        var loaded: [Range<Double>] = []
        var ended: String?
    }

    /// The cache downloads are stored in.
    public let cache: PlaybackCache
    private let delegate: (any CachingAssetDownloadDelegate)?
    private let reported = Locked<[String: Reported]>([:])
    private let observer = Locked<Task<Void, Never>?>(nil)

    /// A session over `cache` telling `delegate` of progress.
    public init(cache: PlaybackCache = .shared, delegate: (any CachingAssetDownloadDelegate)?) {
        self.cache = cache
        self.delegate = delegate
    }

    deinit {
        observer.withLock { $0?.cancel() }
    }

    /// A task for the download `configuration` describes, suspended until its `resume()`. A URL
    /// downloaded before gets its task back with the configuration's selections added.
    public func makeAssetDownloadTask(
        downloadConfiguration configuration: CachingAssetDownloadConfiguration
    ) async throws
        -> CachingAssetDownloadTask
    {
        let manager = try await observedManager()
        let download = try await manager.download(
            configuration.url, title: configuration.title,
            selection: configuration.selection, paused: true)
        return CachingAssetDownloadTask(taskIdentifier: download.id, url: download.url, manager: manager, session: self)
    }

    /// Every download, as tasks: after a relaunch, the way back to downloads that were made
    /// before (running ones resumed by themselves).
    public func allTasks() async throws -> [CachingAssetDownloadTask] {
        let manager = try await observedManager()
        return await manager.downloads.map {
            CachingAssetDownloadTask(taskIdentifier: $0.id, url: $0.url, manager: manager, session: self)
        }
    }

    /// Stops and removes the download of `url` with its bytes, as its task's
    /// ``CachingAssetDownloadTask/cancel()`` does; nothing when there is none.
    public func removeDownload(of url: URL) async throws {
        guard let task = try await allTasks().first(where: { $0.url == url }) else { return }
        try await task.cancel()
    }

    /// Stops telling the delegate; downloads go on.
    public func invalidate() {
        observer.withLock { $0?.cancel() }
    }

    /// The manager, with this session following its updates.
    private func observedManager() async throws -> DownloadManager {
        let manager = try await cache.downloadManager()
        let updates = await manager.updates()
        observer.withLock { observer in
            guard observer == nil else { return }
            observer = Task { [weak self] in
                for await download in updates {
                    guard let self else { return }
                    self.tell(download, manager: manager)
                }
            }
        }
        return manager
    }

    func cancelled(_ task: CachingAssetDownloadTask) {
        reported.withLock { $0[task.taskIdentifier] = nil }
        delegate?.session(self, task: task, didCompleteWithError: CachingAssetDownloadError.cancelled)
    }

    /// Tells the delegate what is new in `download`.
    private func tell(_ download: Download, manager: DownloadManager) {
        guard let delegate else { return }
        let task = CachingAssetDownloadTask(taskIdentifier: download.id, url: download.url, manager: manager, session: self)
        let before = reported.withLock { $0[download.id] ?? Reported() }
        var now = before
        if download.resolved != nil { now.resolved = true }
        let primary = download.renditions.first
        now.loaded = primary?.loaded ?? []
        now.ended = download.state == .completed ? "completed" : download.state.error
        reported.withLock { $0[download.id] = now }
        if now.resolved, !before.resolved, let resolved = download.resolved {
            delegate.session(self, task: task, didResolve: resolved)
        }
        if let primary, now.loaded != before.loaded, let added = Self.added(now.loaded, to: before.loaded) {
            delegate.session(
                self, task: task, didLoad: added, totalTimeRangesLoaded: now.loaded,
                timeRangeExpectedToLoad: primary.expected)
        }
        if let ended = now.ended, ended != before.ended {
            delegate.session(
                self, task: task,
                didCompleteWithError: download.state == .completed ? nil : CachingAssetDownloadError.failed(ended))
        }
    }

    /// The range of `now` that grew since `before`.
    static func added(_ now: [Range<Double>], to before: [Range<Double>]) -> Range<Double>? {
        now.first { range in !before.contains(range) }
    }
}

/// The former name of ``ForegroundAssetDownloadSession``, which says better that it is no
/// background session.
@available(*, deprecated, renamed: "ForegroundAssetDownloadSession")
public typealias CachingAssetDownloadSession = ForegroundAssetDownloadSession

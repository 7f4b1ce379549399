#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
import MediaCache

/// Serves one asset's loading requests from the cache and the network through the core loader.
///
/// Each request is served by a task of its own, keyed by the request, for the URL it names
/// (the asset's own, or a URL a playlist served through the caching scheme leads to): content
/// information from the stored record (instant, also offline) or the origin's probe, then the
/// bytes from `currentOffset` in chunks as they arrive. Every touch of a request happens on
/// ``queue``, the queue AVFoundation calls the delegate on; each request is finished at most once.
final class ResourceLoaderDelegate: NSObject, AVAssetResourceLoaderDelegate, @unchecked Sendable {
    // @unchecked: `requests` and every loading request are touched only on `queue`, a serial
    // queue; everything else is immutable or Sendable.

    /// A loading request in flight.
    struct Serving {
        var task: Task<Void, Never>
        var request: RequestHandle
        /// Bytes it may still deliver after a newer request arrived (see
        /// ``ResourceLoadingConfiguration/supersededAllowance``); `nil` while not superseded.
        var allowance: Int64?
    }

    /// The private serial queue of the delegate's methods and of every touch of a request.
    let queue = DispatchQueue(label: "mediacache.resource-loader")
    let cache: PlaybackCache
    let log = LoadingLog()
    private var requests: [ObjectIdentifier: Serving] = [:]

    init(cache: PlaybackCache) {
        self.cache = cache
    }

    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool {
        guard let url = CachingScheme.originalURL(for: loadingRequest.request.url) else { return false }
        let id = ObjectIdentifier(loadingRequest)
        let handle = RequestHandle(loadingRequest, url: url)
        if let allowance = cache.configuration.resourceLoading.supersededAllowance {
            for (other, serving) in requests where serving.allowance == nil && serving.request.isReplaced(by: handle) {
                requests[other]?.allowance = allowance
            }
        }
        let task = Task { await self.serve(handle, id: id) }
        requests[id] = Serving(task: task, request: handle, allowance: nil)
        return true
    }

    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest) {
        requests.removeValue(forKey: ObjectIdentifier(loadingRequest))?.task.cancel()
    }

    /// Stops serving every request, finishing those still open with a cancellation error; for
    /// an asset that goes away or an item that leaves a queue.
    func cancelAll() {
        queue.async {
            let open = self.requests.values
            self.requests = [:]
            for serving in open {
                serving.task.cancel()
                serving.request.finish(with: URLError(.cancelled))
            }
        }
    }

    /// Runs `body` on the queue and returns its result.
    func onQueue<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Whether the request may take `count` more bytes: counts them against its allowance once
    /// superseded. Call on the queue.
    func mayDeliver(_ count: Int, for id: ObjectIdentifier) -> Bool {
        guard var serving = requests[id] else { return false }
        guard let allowance = serving.allowance else { return true }
        guard allowance > 0 else { return false }
        serving.allowance = allowance - Int64(count)
        requests[id] = serving
        return true
    }

    /// Forgets a request that ended. Call on the queue.
    func ended(_ id: ObjectIdentifier) {
        requests[id] = nil
    }
}

/// A loading request, passed between tasks and touched only on the delegate's queue.
struct RequestHandle: @unchecked Sendable {
    // @unchecked: AVAssetResourceLoadingRequest is not Sendable; every use goes through the
    // delegate's serial queue.
    let request: AVAssetResourceLoadingRequest
    /// The original URL the request names.
    let url: URL

    init(_ request: AVAssetResourceLoadingRequest, url: URL) {
        self.request = request
        self.url = url
    }

    /// Whether the request wants everything from its offset: the flag, or the `Int.max` length
    /// AVPlayer sends while the length is unknown.
    var wantsToEnd: Bool {
        guard let data = request.dataRequest else { return false }
        return data.requestsAllDataToEndOfResource || data.requestedLength == Int.max
    }

    /// Whether `newer` replaces this request, as a player's seek does: both want the same
    /// resource to its end, and `newer` starts at or past the next byte this one would deliver,
    /// so that what this one would fetch next was skipped or is asked again. A reader starting
    /// behind it (an `AVPlayerLooper` copy from the start) or a ranged read (an image
    /// generator's) is another consumer, which leaves it alone.
    func isReplaced(by newer: RequestHandle) -> Bool {
        guard newer.url == url, wantsToEnd, newer.wantsToEnd,
            let current = request.dataRequest?.currentOffset, let start = newer.request.dataRequest?.requestedOffset
        else { return false }
        return start >= current
    }

    /// Whether the request can still take data: neither finished nor cancelled.
    var isOpen: Bool { !request.isFinished && !request.isCancelled }

    /// Finishes the request unless it is already finished or cancelled.
    func finish(with error: (any Error)? = nil) {
        guard isOpen else { return }
        if let error { request.finishLoading(with: error) } else { request.finishLoading() }
    }
}

#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
import MediaCache
import MediaCacheHLS

extension ResourceLoaderDelegate {
    /// How a request's bytes went.
    private enum Delivery: Sendable {
        case delivered
        case stop
    }

    /// Serves one loading request: content information, then bytes, then finishes it once.
    ///
    /// A request carrying content information usually also asks for bytes 0–1. They are served
    /// like any bytes: the content probe has already stored them, so this costs nothing, and a
    /// player that expects them gets them.
    func serve(_ handle: RequestHandle, id: ObjectIdentifier) async {
        if await isPlaylist(handle.url) {
            await servePlaylist(handle)
        } else {
            await serveBytes(handle, id: id)
        }
        await onQueue { self.ended(id) }
    }

    /// Whether `url` is an HLS playlist, decided as the proxy decides it: by its path, else by
    /// the type and first line the origin gives (``PlaylistDetection``). `false` when that
    /// cannot be learnt; serving its bytes then reports why.
    private func isPlaylist(_ url: URL) async -> Bool {
        guard let loader = try? cache.loader() else { return false }
        return (try? await PlaylistDetection.isPlaylist(url, loader: loader)) ?? false
    }

    private func serveBytes(_ handle: RequestHandle, id: ObjectIdentifier) async {
        let start = Date()
        var fromCache: Int64 = 0
        var fromNetwork: Int64 = 0
        do {
            let loader = try cache.loader()
            if await onQueue({ handle.request.contentInformationRequest != nil }) {
                let record = try await loader.contentRecord(for: handle.url)
                if let refusal = await onQueue({ self.describe(record, to: handle) }) { throw refusal }
            }
            if let wanted = await onQueue({ Self.wanted(handle) }) {
                stream: for try await chunk in loader.read(handle.url, wanted) {
                    switch await onQueue({ self.deliver(chunk.bytes, to: handle, id: id) }) {
                    case .delivered:
                        if chunk.source == .cache { fromCache += Int64(chunk.bytes.count) } else { fromNetwork += Int64(chunk.bytes.count) }
                    case .stop:
                        break stream
                    }
                }
            }
            let (cached, fetched) = (fromCache, fromNetwork)
            await onQueue {
                // A superseded request that ran out of allowance stays open for AVPlayer to cancel.
                guard self.mayDeliver(0, for: id) || !handle.wantsToEnd else { return }
                self.log.served(handle.url, since: start, fromCache: cached, fromNetwork: fetched)
                handle.finish()
            }
        } catch {
            await fail(handle, error, since: start, fromCache: fromCache, fromNetwork: fromNetwork)
        }
    }

    /// Ends a request whose serving threw: a cancelled one is logged as served so far; a
    /// request starting at or past the end gets nothing, as Apple asks; any other is finished
    /// with the error, which the error log records.
    func fail(_ handle: RequestHandle, _ error: any Error, since start: Date, fromCache: Int64 = 0, fromNetwork: Int64 = 0) async {
        if Task.isCancelled {
            log.served(handle.url, since: start, fromCache: fromCache, fromNetwork: fromNetwork)
            return
        }
        let failure = Self.failure(error, url: handle.url)
        if (failure as? LoaderError)?.code == .rangeNotSatisfiable {
            await onQueue { handle.finish() }
            return
        }
        log.failed(handle.url, failure)
        await onQueue { handle.finish(with: failure) }
    }

    /// Fills the content-information request from the stored record. Call on the queue.
    ///
    /// - Returns: The error to finish the request with when the player allows no content type
    ///   that fits the resource (finishing it with another would raise on Apple platforms).
    func describe(_ record: ResourceRecord, to handle: RequestHandle) -> PlaybackCacheError? {
        let info = record.contentInfo
        return describe(
            mimeType: info.mimeType, length: info.totalLength, rangesSupported: true,
            entirelyAvailable: info.totalLength.map { record.available.contains(ByteRange(0, $0)) } ?? false, to: handle)
    }

    /// Fills the content-information request, if the request has one and is open: the type
    /// from what the player allows, the length or `-1` (NSURLResponseUnknownLength) when it is
    /// unknown, and range support only with a known length. Call on the queue.
    func describe(
        mimeType: String?, length: Int64?, rangesSupported: Bool, entirelyAvailable: Bool,
        to handle: RequestHandle
    ) -> PlaybackCacheError? {
        guard handle.isOpen, let information = handle.request.contentInformationRequest else { return nil }
        let allowed = information.allowedContentTypes
        let type = ContentTypes.contentType(mimeType: mimeType, url: handle.url, allowed: allowed)
        if let allowed, !allowed.isEmpty, type == nil {
            return .contentTypeNotAllowed(handle.url, mimeType: mimeType, allowed: allowed)
        }
        information.contentType = type
        information.contentLength = length ?? -1
        information.isEntireLengthAvailableOnDemand = entirelyAvailable
        information.isByteRangeAccessSupported = rangesSupported && length != nil
        return nil
    }

    /// The bytes still wanted, from `currentOffset`, to the end when the request asks for
    /// everything or for `Int.max` bytes (what AVPlayer sends while the length is unknown).
    /// Call on the queue.
    private static func wanted(_ handle: RequestHandle) -> ByteRequest? {
        guard handle.isOpen, let data = handle.request.dataRequest else { return nil }
        guard !handle.wantsToEnd else { return ByteRequest(offset: data.currentOffset) }
        let (end, overflow) = data.requestedOffset.addingReportingOverflow(Int64(data.requestedLength))
        return ByteRequest(offset: data.currentOffset, length: overflow ? nil : max(end - data.currentOffset, 0))
    }

    /// Hands bytes to the request unless it ended or ran out of allowance. Call on the queue.
    private func deliver(_ bytes: Data, to handle: RequestHandle, id: ObjectIdentifier) -> Delivery {
        guard handle.isOpen, let data = handle.request.dataRequest, mayDeliver(bytes.count, for: id) else { return .stop }
        data.respond(with: bytes)
        return .delivered
    }

    private static func failure(_ error: any Error, url: URL) -> any Error {
        switch error {
        case let error as LoaderError: error
        case let error as PlaybackCacheError: error
        case let error as PlaylistError: error
        case let error as MediaStoreError: LoaderError.store(error)
        default: LoaderError.origin(OriginError.failure(error, url: url))
        }
    }
}

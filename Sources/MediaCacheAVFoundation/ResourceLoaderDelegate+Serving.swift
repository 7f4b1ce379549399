#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
import MediaCache

extension ResourceLoaderDelegate {
    /// What a data request asks for, read on the queue.
    private struct Wanted: Sendable {
        var offset: Int64
        var end: Int64?
    }

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
        let start = Date()
        var fromCache: Int64 = 0
        var fromNetwork: Int64 = 0
        do {
            let loader = try cache.loader()
            if await onQueue({ handle.request.contentInformationRequest != nil }) {
                let record = try await loader.contentRecord(for: url)
                await onQueue { self.describe(record, to: handle) }
            }
            if let wanted = await onQueue({ Self.wanted(handle) }) {
                let length = wanted.end.map { max($0 - wanted.offset, 0) }
                stream: for try await chunk in loader.read(url, ByteRequest(offset: wanted.offset, length: length)) {
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
                self.log.served(self.url, since: start, fromCache: cached, fromNetwork: fetched)
                handle.finish()
            }
        } catch {
            if Task.isCancelled {
                log.served(url, since: start, fromCache: fromCache, fromNetwork: fromNetwork)
            } else {
                let failure = Self.loaderError(error, url: url)
                if case .rangeNotSatisfiable = failure {
                    // The request starts at or past the end: nothing to deliver, as Apple asks.
                    await onQueue { handle.finish() }
                } else {
                    log.failed(url, failure)
                    await onQueue { handle.finish(with: failure) }
                }
            }
        }
        await onQueue { self.ended(id) }
    }

    /// Fills the content-information request. Call on the queue.
    private func describe(_ record: ResourceRecord, to handle: RequestHandle) {
        guard handle.isOpen, let information = handle.request.contentInformationRequest else { return }
        let info = record.contentInfo
        if let type = ContentTypes.uti(mimeType: info.mimeType, url: url),
           information.allowedContentTypes?.contains(type) ?? true {
            information.contentType = type
        }
        if let length = info.totalLength {
            information.contentLength = length
            information.isEntireLengthAvailableOnDemand = record.available.contains(ByteRange(0, length))
        }
        // Any range can be served: the loader fills gaps even from origins that refuse ranges.
        information.isByteRangeAccessSupported = true
    }

    /// The bytes still wanted, from `currentOffset`. Call on the queue.
    private static func wanted(_ handle: RequestHandle) -> Wanted? {
        guard handle.isOpen, let data = handle.request.dataRequest else { return nil }
        let end = data.requestsAllDataToEndOfResource ? nil : data.requestedOffset + Int64(data.requestedLength)
        return Wanted(offset: data.currentOffset, end: end)
    }

    /// Hands bytes to the request unless it ended or ran out of allowance. Call on the queue.
    private func deliver(_ bytes: Data, to handle: RequestHandle, id: ObjectIdentifier) -> Delivery {
        guard handle.isOpen, let data = handle.request.dataRequest, mayDeliver(bytes.count, for: id) else { return .stop }
        data.respond(with: bytes)
        return .delivered
    }

    private static func loaderError(_ error: any Error, url: URL) -> LoaderError {
        if let error = error as? LoaderError { return error }
        if let error = error as? MediaStoreError { return .store(error) }
        return .origin(.transport("\(error)", url: url))
    }
}

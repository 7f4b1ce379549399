// See AVAssetResourceLoader.swift for what this shim is. AVAssetResourceLoader.h of the iOS 26
// SDK: no isolation, not Sendable.
#if !canImport(AVFoundation)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request for a resource's content information and/or bytes.
open class AVAssetResourceLoadingRequest: NSObject {
    private let lock = NSLock()
    private let storedRequest: URLRequest
    private let storedContentInformationRequest: AVAssetResourceLoadingContentInformationRequest?
    private let storedDataRequest: AVAssetResourceLoadingDataRequest?
    private var state = (finished: false, cancelled: false, error: (any Error)?.none, finishCalls: 0)
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Apple: `init` is unavailable. A request as AVPlayer makes it: for `url`, asking for
    /// content information and/or the bytes of `data`.
    package init(
        url: URL, contentInformation: AVAssetResourceLoadingContentInformationRequest?,
        data: AVAssetResourceLoadingDataRequest?
    ) {
        storedRequest = URLRequest(url: url)
        storedContentInformationRequest = contentInformation
        storedDataRequest = data
    }

    open var request: URLRequest { storedRequest }
    open var isFinished: Bool { lock.withLock { state.finished } }
    open var isCancelled: Bool { lock.withLock { state.cancelled } }
    open var contentInformationRequest: AVAssetResourceLoadingContentInformationRequest? { storedContentInformationRequest }
    open var dataRequest: AVAssetResourceLoadingDataRequest? { storedDataRequest }
    @NSCopying open var response: URLResponse?
    open var redirect: URLRequest?

    /// Completes the request; a second call is ignored (Apple logs it).
    ///
    /// Traps where Apple raises an exception (iOS 18 SDK header for `finishLoading`): the
    /// request asked for content information with a non-empty `allowedContentTypes`, and
    /// `contentType` is not one of them (nil included).
    open func finishLoading() {
        if let information = storedContentInformationRequest, let allowed = information.allowedContentTypes, !allowed.isEmpty {
            precondition(
                information.contentType.map(allowed.contains) ?? false,
                "AVFoundation raises: Must respond with a contentType contained in "
                    + "AVAssetResourceLoadingContentInformationRequest.allowedContentTypes "
                    + "(\(information.contentType ?? "nil") is not among \(allowed))")
        }
        finish(nil)
    }

    /// Completes the request with `error`, or successfully for `nil`.
    open func finishLoading(with error: (any Error)?) {
        finish(error)
    }

    private func finish(_ error: (any Error)?) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            state.finishCalls += 1
            guard !state.finished else { return [] }
            state.finished = true
            state.error = error
            defer { finishWaiters = [] }
            return finishWaiters
        }
        for waiter in waiters { waiter.resume() }
        storedDataRequest?.end()
    }

    /// How many times the delegate called a `finishLoading` method.
    package var finishCalls: Int { lock.withLock { state.finishCalls } }

    /// The error the request was finished with.
    package var finishError: (any Error)? { lock.withLock { state.error } }

    package func markCancelled() {
        lock.withLock { state.cancelled = true }
        storedDataRequest?.end()
    }

    /// Returns once the delegate has finished the request.
    package func waitUntilFinished() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                if state.finished { return true }
                finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// A request to renew a resource that expires (Apple: no members of its own).
open class AVAssetResourceRenewalRequest: AVAssetResourceLoadingRequest {}

/// The byte range a loading request wants, and the bytes delivered so far.
open class AVAssetResourceLoadingDataRequest: NSObject {
    private let lock = NSLock()
    private let offset: Int64
    private let length: Int
    private let toEnd: Bool
    private var delivered = Data()
    private var ended = false
    private var byteWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Apple: `init` is unavailable. A request for `length` bytes from `offset`, or for all
    /// from `offset` when `toEnd`; then `length` is the rest of a known length, and `Int.max`
    /// only while the length is unknown, as AVPlayer sends it.
    package init(offset: Int64, length: Int, toEnd: Bool) {
        self.offset = offset
        self.length = length
        self.toEnd = toEnd
    }

    open var requestedOffset: Int64 { offset }
    open var requestedLength: Int { length }
    open var requestsAllDataToEndOfResource: Bool { toEnd }
    open var currentOffset: Int64 { lock.withLock { offset + Int64(delivered.count) } }

    /// Delivers bytes at ``currentOffset``, which advances by their count.
    open func respond(with data: Data) {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            delivered.append(data)
            let ready = byteWaiters.filter { $0.count <= delivered.count }
            byteWaiters.removeAll { $0.count <= delivered.count }
            return ready.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Every byte delivered so far.
    package var received: Data { lock.withLock { delivered } }

    /// Returns once at least `count` bytes were delivered, or the request has ended.
    package func waitForBytes(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if ended || delivered.count >= count { return true }
                byteWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The request was finished or cancelled: nobody waits for more bytes.
    fileprivate func end() {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            ended = true
            defer { byteWaiters = [] }
            return byteWaiters.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// What the delegate says about the resource: its type, length and range support.
open class AVAssetResourceLoadingContentInformationRequest: NSObject {
    private let allowed: [String]?

    /// Apple: `init` is unavailable. `allowedContentTypes` as AVPlayer sends it.
    package init(allowedContentTypes: [String]?) {
        allowed = allowedContentTypes
    }

    /// A UTI, one of ``allowedContentTypes`` when that is set (Apple raises otherwise).
    open var contentType: String?
    open var allowedContentTypes: [String]? { allowed }
    open var contentLength: Int64 = 0
    open var isByteRangeAccessSupported = false
    open var renewalDate: Date?
    open var isEntireLengthAvailableOnDemand = false
}
#endif

// The resource-loader part of Apple's AVFoundation, for Linux: the declarations the adapter uses,
// spelled as Swift sees them on Apple platforms (see shared/reference/apple-avfoundation.md,
// checked against developer.apple.com), with in-memory behaviour. `package` members stand in
// for what AVPlayer does and exist only here: the adapter must never call them.
//
// Isolation and sendability follow the iOS 26 SDK, member by member; each file names its header.
// Here, AVAssetResourceLoader.h: neither the loader, its delegate protocol nor the loading
// requests carry NS_SWIFT_UI_ACTOR, NS_SWIFT_NONISOLATED or NS_SWIFT_SENDABLE, so they are
// nonisolated and not Sendable; the delegate is called on the queue given to `setDelegate`.
#if !canImport(AVFoundation)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mediates resource requests from an `AVURLAsset` to its delegate.
open class AVAssetResourceLoader: NSObject {
    private let lock = NSLock()
    private weak var storedDelegate: (any AVAssetResourceLoaderDelegate)?
    private var storedQueue: DispatchQueue?

    /// Apple: `init` is unavailable; assets create their loader.
    override package init() {}

    /// Sets the delegate (held weakly) and the queue its methods are called on (retained).
    open func setDelegate(_ delegate: (any AVAssetResourceLoaderDelegate)?, queue delegateQueue: DispatchQueue?) {
        lock.withLock {
            storedDelegate = delegate
            storedQueue = delegateQueue
        }
    }

    /// The delegate, held weakly.
    open var delegate: (any AVAssetResourceLoaderDelegate)? { lock.withLock { storedDelegate } }

    /// The queue the delegate's methods are called on.
    open var delegateQueue: DispatchQueue? { lock.withLock { storedQueue } }

    /// Whether content keys are loaded as eagerly as possible.
    open var preloadsEligibleContentKeys = false

    /// What AVPlayer does when it needs bytes: asks the delegate on its queue. Answers the
    /// delegate's return value, `false` without a delegate.
    package func issue(_ request: AVAssetResourceLoadingRequest) -> Bool {
        guard let delegate, let queue = delegateQueue else { return false }
        return queue.sync { delegate.resourceLoader(self, shouldWaitForLoadingOfRequestedResource: request) }
    }

    /// What AVPlayer does when it no longer needs a request: marks it cancelled, then tells the
    /// delegate on its queue.
    package func cancel(_ request: AVAssetResourceLoadingRequest) {
        request.markCancelled()
        guard let delegate, let queue = delegateQueue else { return }
        queue.sync { delegate.resourceLoader(self, didCancel: request) }
    }
}

/// Loads resources an asset cannot load itself (Apple: every method is optional).
public protocol AVAssetResourceLoaderDelegate: NSObjectProtocol {
    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool
    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForRenewalOfRequestedResource renewalRequest: AVAssetResourceRenewalRequest
    ) -> Bool
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest)
    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForResponseTo authenticationChallenge: URLAuthenticationChallenge
    ) -> Bool
    func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel authenticationChallenge: URLAuthenticationChallenge)
}

extension AVAssetResourceLoaderDelegate {
    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool {
        false
    }

    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForRenewalOfRequestedResource renewalRequest: AVAssetResourceRenewalRequest
    ) -> Bool {
        false
    }

    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest) {}

    public func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForResponseTo authenticationChallenge: URLAuthenticationChallenge
    ) -> Bool {
        false
    }

    public func resourceLoader(_ resourceLoader: AVAssetResourceLoader, didCancel authenticationChallenge: URLAuthenticationChallenge) {}
}
#endif

// See AVAssetResourceLoader.swift for what this shim is. Isolation member by member as in
// AVPlayer.h of the iOS 26 SDK: both classes NS_SWIFT_UI_ACTOR, the members below
// NS_SWIFT_NONISOLATED (Apple's documentation prints each as `nonisolated`), so their state sits
// behind a lock, as AVFoundation's does behind its own serialization.
#if !canImport(AVFoundation)
import Foundation

/// Plays one item at a time.
@MainActor
open class AVPlayer: NSObject {
    fileprivate let state: Locked<(current: AVPlayerItem?, queue: [AVPlayerItem], waits: Bool, external: Bool)>

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated public override init() {
        state = Locked((nil, [], true, false))
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated public init(playerItem item: AVPlayerItem?) {
        state = Locked((item, item.map { [$0] } ?? [], true, false))
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open var currentItem: AVPlayerItem? { state.withLock { $0.current } }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open func replaceCurrentItem(with item: AVPlayerItem?) {
        state.withLock {
            $0.current = item; $0.queue = item.map { [$0] } ?? []
        }
    }

    /// Set `false` when a resource loader feeds media bytes (Apple's guidance). AVPlayer.h:
    /// `NS_SWIFT_NONISOLATED`.
    nonisolated open var automaticallyWaitsToMinimizeStalling: Bool {
        get { state.withLock { $0.waits } }
        set { state.withLock { $0.waits = newValue } }
    }

    /// Whether video plays on an external screen (AirPlay). AVPlayer.h: `NS_SWIFT_NONISOLATED`;
    /// iOS, tvOS and macOS only.
    nonisolated open var isExternalPlaybackActive: Bool { state.withLock { $0.external } }

    /// What the system does when the user picks an AirPlay receiver, or leaves it; the shim's
    /// stand-in for it. Apple has no setter.
    nonisolated package func setExternalPlaybackActive(_ active: Bool) {
        state.withLock { $0.external = active }
    }
}

/// Plays a queue of items in order.
@MainActor
open class AVQueuePlayer: AVPlayer {
    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated public init(items: [AVPlayerItem]) {
        super.init(playerItem: items.first)
        state.withLock { $0.queue = items }
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated public override init() {
        super.init()
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open func items() -> [AVPlayerItem] { state.withLock { $0.queue } }

    /// Ends the current item and plays the next; the current item leaves the queue. AVPlayer.h:
    /// `NS_SWIFT_NONISOLATED`.
    nonisolated open func advanceToNextItem() {
        state.withLock { state in
            if !state.queue.isEmpty { state.queue.removeFirst() }
            state.current = state.queue.first
        }
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        !state.withLock { $0.queue.contains(item) }
    }

    /// Inserts `item` after `afterItem`, or at the end for `nil`. Traps, where Apple raises,
    /// for an item that ``canInsert(_:after:)`` refuses. AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        precondition(
            canInsert(item, after: afterItem),
            "AVQueuePlayer raises NSInvalidArgumentException: the item cannot be inserted (check canInsert(_:after:))")
        state.withLock { state in
            if let afterItem, let index = state.queue.firstIndex(of: afterItem) {
                state.queue.insert(item, at: index + 1)
            } else {
                state.queue.append(item)
            }
            state.current = state.queue.first
        }
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open func remove(_ item: AVPlayerItem) {
        state.withLock { state in
            state.queue.removeAll { $0 === item }
            state.current = state.queue.first
        }
    }

    /// AVPlayer.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open func removeAllItems() {
        state.withLock {
            $0.queue = []; $0.current = nil
        }
    }
}

/// State behind a lock, for members AVFoundation makes callable from any thread.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif

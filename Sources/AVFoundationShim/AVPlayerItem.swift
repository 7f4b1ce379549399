// See AVAssetResourceLoader.swift for what this shim is.
#if !canImport(AVFoundation)
import Foundation

/// The presentation state of an asset a player plays; main-actor isolated as in current SDKs.
@MainActor
open class AVPlayerItem: NSObject {
    private let storedAsset: AVAsset
    private let keys: [String]

    public init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]?) {
        storedAsset = asset
        keys = automaticallyLoadedAssetKeys ?? []
    }

    public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: ["duration"])
    }

    open var asset: AVAsset { storedAsset }
    nonisolated open var automaticallyLoadedAssetKeys: [String] { keys }
}

/// Plays one item at a time.
@MainActor
open class AVPlayer: NSObject {
    fileprivate var current: AVPlayerItem?

    public override init() {}

    public init(playerItem item: AVPlayerItem?) {
        current = item
    }

    open var currentItem: AVPlayerItem? { current }
    /// Set `false` when a resource loader feeds media bytes (Apple's guidance).
    open var automaticallyWaitsToMinimizeStalling = true
}

/// Plays a queue of items in order.
@MainActor
open class AVQueuePlayer: AVPlayer {
    private var queue: [AVPlayerItem]

    public init(items: [AVPlayerItem]) {
        queue = items
        super.init(playerItem: items.first)
    }

    public override init() {
        queue = []
        super.init(playerItem: nil)
    }

    open func items() -> [AVPlayerItem] { queue }

    /// Ends the current item and plays the next; the current item leaves the queue.
    open func advanceToNextItem() {
        if !queue.isEmpty { queue.removeFirst() }
        current = queue.first
    }

    open func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        !queue.contains(item)
    }

    /// Inserts `item` after `afterItem`, or at the end for `nil`.
    open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        guard canInsert(item, after: afterItem) else { return }
        if let afterItem, let index = queue.firstIndex(of: afterItem) {
            queue.insert(item, at: index + 1)
        } else {
            queue.append(item)
        }
        current = queue.first
    }

    open func remove(_ item: AVPlayerItem) {
        queue.removeAll { $0 === item }
        current = queue.first
    }

    open func removeAllItems() {
        queue = []
        current = nil
    }
}
#endif

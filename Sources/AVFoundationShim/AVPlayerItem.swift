// See AVAssetResourceLoader.swift for what this shim is.
#if !canImport(AVFoundation)
import Foundation

/// The presentation state of an asset a player plays; main-actor isolated as in current SDKs.
///
/// Copyable as Apple's is (`NSCopying`; `AVPlayerLooper` copies its template item): a copy is
/// made by calling the designated initializer on the item's own class with the same asset.
@MainActor
open class AVPlayerItem: NSObject, @preconcurrency NSCopying {
    private let storedAsset: AVAsset
    private let keys: [String]

    /// The designated initializer. `required` here, where Apple's is not: AVFoundation copies
    /// an item through this initializer of the item's own class, and a subclass that does not
    /// have it crashes there ("Use of unimplemented initializer"). The shim makes that crash a
    /// compile error.
    public required init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]?) {
        storedAsset = asset
        keys = automaticallyLoadedAssetKeys ?? []
    }

    /// Loads `duration` automatically, as Apple's does.
    public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: ["duration"])
    }

    /// An item over a plain `AVURLAsset` of `URL`.
    public convenience init(url URL: URL) {
        self.init(asset: AVURLAsset(url: URL))
    }

    open var asset: AVAsset { storedAsset }
    nonisolated open var automaticallyLoadedAssetKeys: [String] { keys }

    /// A new item of the same class over the same asset, made as AVFoundation makes it.
    open func copy(with zone: NSZone? = nil) -> Any {
        type(of: self).init(asset: storedAsset, automaticallyLoadedAssetKeys: keys)
    }
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

    /// Inserts `item` after `afterItem`, or at the end for `nil`. Traps, where Apple raises,
    /// for an item that ``canInsert(_:after:)`` refuses.
    open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        precondition(canInsert(item, after: afterItem),
                     "AVQueuePlayer raises NSInvalidArgumentException: the item cannot be inserted (check canInsert(_:after:))")
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

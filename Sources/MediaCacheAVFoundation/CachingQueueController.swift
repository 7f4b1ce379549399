#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif

/// Keeps an `AVQueuePlayer`'s loading to the items it will play: AVQueuePlayer does not stop
/// loading an item when it leaves the queue, so the controller cancels the loading of every
/// ``CachingPlayerItem`` that is no longer current or upcoming.
///
/// ```swift
/// let controller = CachingQueueController(player: AVQueuePlayer())
/// feed.forEach { controller.append(CachingPlayerItem(url: $0)) }
/// controller.advanceToNextItem()     // the item left behind stops loading
/// ```
///
/// When the player advances by itself at an item's end, call ``refresh()`` (for example from
/// an observer of `currentItem`).
@MainActor
public final class CachingQueueController {
    /// The player whose queue is managed.
    public let player: AVQueuePlayer
    private var tracked: [CachingPlayerItem] = []

    /// A controller for `player`; items already queued are tracked.
    public init(player: AVQueuePlayer) {
        self.player = player
        tracked = player.items().compactMap { $0 as? CachingPlayerItem }
    }

    /// Appends `item` to the queue, when the player can take it (`canInsert(_:after:)`: an
    /// item already queued cannot be inserted again, and inserting it raises on Apple
    /// platforms).
    ///
    /// - Returns: Whether the item was appended.
    @discardableResult
    public func append(_ item: CachingPlayerItem) -> Bool {
        guard player.canInsert(item, after: nil) else { return false }
        player.insert(item, after: nil)
        tracked.append(item)
        return true
    }

    /// Plays the next item; the one left behind stops loading.
    public func advanceToNextItem() {
        player.advanceToNextItem()
        refresh()
    }

    /// Takes `item` out of the queue and stops its loading.
    public func remove(_ item: CachingPlayerItem) {
        player.remove(item)
        refresh()
    }

    /// Stops the loading of every tracked item no longer in the queue.
    public func refresh() {
        let queued = player.items()
        let (kept, gone) = tracked.reduce(into: ([CachingPlayerItem](), [CachingPlayerItem]())) { result, item in
            if queued.contains(where: { $0 === item }) { result.0.append(item) } else { result.1.append(item) }
        }
        tracked = kept
        for item in gone { item.cancelLoading() }
    }
}

// See AVAssetResourceLoader.swift for what this shim is. Isolation member by member as in
// AVPlayerItem.h of the iOS 26 SDK (class NS_SWIFT_UI_ACTOR; members marked NS_SWIFT_NONISOLATED
// there are `nonisolated` here) and AVFoundation's Swift overlay (the `AVAsset & Sendable`
// initializer).
#if !canImport(AVFoundation)
import Foundation

/// The presentation state of an asset a player plays.
///
/// Copyable as Apple's is (`NSCopying`; `AVPlayerLooper` copies its template item): a copy is
/// made by calling the designated initializer on the item's own class with the same asset.
@MainActor
open class AVPlayerItem: NSObject, NSCopying {
    /// Whether an item can be played (AVPlayerItem.h: `AVPlayerItemStatus`).
    public enum Status: Int, Sendable {
        case unknown = 0
        case readyToPlay = 1
        case failed = 2
    }

    private nonisolated let storedAsset: UncheckedAsset
    private nonisolated let keys: [String]

    /// The designated initializer (AVPlayerItem.h: `NS_DESIGNATED_INITIALIZER`, main actor, as
    /// AVAsset is not Sendable). `required` here, where Apple's is not: AVFoundation copies an
    /// item through this initializer of the item's own class, and a subclass that does not have
    /// it crashes there ("Use of unimplemented initializer"). The shim makes that crash a compile
    /// error.
    public required init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]?) {
        storedAsset = UncheckedAsset(asset)
        keys = automaticallyLoadedAssetKeys ?? []
    }

    /// What AVFoundation's nonisolated initializers reach in Objective-C, where isolation does
    /// not exist. Apple has no such initializer: it is SPI, which nothing outside the shim
    /// imports, and public only so that subclasses elsewhere inherit the convenience
    /// initializers, as Apple's do.
    @_spi(ObjectiveC) nonisolated public init(nonisolatedAsset asset: AVAsset, automaticallyLoadedAssetKeys: [String]) {
        storedAsset = UncheckedAsset(asset)
        keys = automaticallyLoadedAssetKeys
    }

    /// Loads `duration` automatically, as Apple's does (AVPlayerItem.h: main actor).
    public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: ["duration"])
    }

    /// The overload Swift chooses for a Sendable asset such as `AVURLAsset`, callable off the
    /// main actor (AVFoundation's Swift overlay: `nonisolated`).
    nonisolated public convenience init(asset: any AVAsset & Sendable) {
        self.init(nonisolatedAsset: asset, automaticallyLoadedAssetKeys: ["duration"])
    }

    /// An item over a plain `AVURLAsset` of `URL` (AVPlayerItem.h: `NS_SWIFT_NONISOLATED`).
    nonisolated public convenience init(url URL: URL) {
        self.init(nonisolatedAsset: AVURLAsset(url: URL), automaticallyLoadedAssetKeys: ["duration"])
    }

    /// The asset (AVPlayerItem.h: main actor, as AVAsset is not Sendable).
    open var asset: AVAsset { storedAsset.asset }

    /// AVPlayerItem.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open var automaticallyLoadedAssetKeys: [String] { keys }

    /// AVPlayerItem.h: `NS_SWIFT_NONISOLATED`. The shim never plays, so it stays `.unknown`.
    nonisolated open var status: Status { .unknown }

    /// AVPlayerItem.h: `NS_SWIFT_NONISOLATED`; `nil` while the status is not `.failed`.
    nonisolated open var error: (any Error)? { nil }

    /// A new item of the same class over the same asset, made as AVFoundation makes it
    /// (AVPlayerItem.h: `NS_SWIFT_NONISOLATED`): through the designated initializer of the
    /// item's own class, on the calling thread.
    nonisolated open func copy(with zone: NSZone? = nil) -> Any {
        let make: @MainActor () -> AVPlayerItem = {
            type(of: self).init(asset: self.storedAsset.asset, automaticallyLoadedAssetKeys: self.keys)
        }
        return withoutIsolation(make)
    }

    /// AVPlayerItem.h: `NS_SWIFT_NONISOLATED`.
    nonisolated open override func copy() -> Any {
        copy(with: nil)
    }
}

/// Calls `body` on the calling thread, as Objective-C calls a method that Swift sees as main-actor
/// isolated: how AVFoundation's nonisolated `copy` reaches the designated initializer.
private func withoutIsolation<Result>(_ body: @MainActor () -> Result) -> Result {
    withoutActuallyEscaping(body) { body in
        unsafeBitCast(body, to: (() -> Result).self)()
    }
}

/// An asset held by an item whose members AVFoundation marks nonisolated: Objective-C keeps the
/// pointer without isolation; Swift reads it only on the main actor (`asset`) or to copy.
private struct UncheckedAsset: @unchecked Sendable {
    // @unchecked: the reference never changes; the asset's own state is not touched here.
    let asset: AVAsset

    init(_ asset: AVAsset) {
        self.asset = asset
    }
}
#endif

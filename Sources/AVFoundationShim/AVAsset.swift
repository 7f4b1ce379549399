// See AVAssetResourceLoader.swift for what this shim is. Sendability as in AVAsset.h of the
// iOS 26 SDK: AVAsset carries no annotation (not Sendable); AVURLAsset is NS_SWIFT_SENDABLE, so
// every member below is nonisolated.
#if !canImport(AVFoundation)
import Foundation

/// An `AVURLAsset` option: `[HTTPCookie]` to send with the asset's HTTP requests (AVAsset.h).
public let AVURLAssetHTTPCookiesKey = "AVURLAssetHTTPCookiesKey"

/// An `AVURLAsset` option: the `User-Agent` of the asset's HTTP requests (AVAsset.h, iOS 16).
public let AVURLAssetHTTPUserAgentKey = "AVURLAssetHTTPUserAgentKey"

/// A timed media resource; not `Sendable`, as Apple's is not (AVAsset.h).
open class AVAsset: NSObject {}

/// An asset loaded from a URL; URLs it cannot load itself go to its resource loader.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    // Sendable as on Apple platforms (AVAsset.h: NS_SWIFT_SENDABLE, "subclasses must fulfill the
    // requirements of a Sendable type"); @unchecked as AVAsset is not: both stored properties
    // are immutable references.
    private let storedURL: URL
    private let loader = AVAssetResourceLoader()

    /// AVAsset.h: `-initWithURL:options:`, the designated initializer.
    public init(url URL: URL, options: [String: Any]? = nil) {
        storedURL = URL
    }

    /// AVAsset.h: `URL`.
    open var url: URL { storedURL }
    /// AVAsset.h (AVURLAssetURLHandling): `resourceLoader`.
    open var resourceLoader: AVAssetResourceLoader { loader }
}
#endif

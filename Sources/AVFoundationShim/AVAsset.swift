// See AVAssetResourceLoader.swift for what this shim is.
#if !canImport(AVFoundation)
import Foundation

/// A timed media resource.
open class AVAsset: NSObject, @unchecked Sendable {}

/// An asset loaded from a URL; URLs it cannot load itself go to its resource loader.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    // @unchecked as on Apple platforms, where AVURLAsset is Sendable: both stored properties
    // are immutable references.
    private let storedURL: URL
    private let loader = AVAssetResourceLoader()

    public init(url URL: URL, options: [String: Any]? = nil) {
        storedURL = URL
    }

    open var url: URL { storedURL }
    open var resourceLoader: AVAssetResourceLoader { loader }
}
#endif

// See AVAssetResourceLoader.swift for what this shim is.
#if !canImport(AVFoundation)
import Foundation

/// A timed media resource; not `Sendable`, as Apple's is not.
open class AVAsset: NSObject {}

/// An asset loaded from a URL; URLs it cannot load itself go to its resource loader.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    // Sendable as on Apple platforms (iOS 18 SDK on), where subclasses must fulfil the
    // requirements of a Sendable type; @unchecked as AVAsset is not: both stored properties are
    // immutable references.
    private let storedURL: URL
    private let loader = AVAssetResourceLoader()

    public init(url URL: URL, options: [String: Any]? = nil) {
        storedURL = URL
    }

    open var url: URL { storedURL }
    open var resourceLoader: AVAssetResourceLoader { loader }
}
#endif

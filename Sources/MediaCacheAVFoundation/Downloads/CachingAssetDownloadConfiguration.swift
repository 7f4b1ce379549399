import Foundation
import MediaCache
import MediaCacheHLS

/// What to download of an asset, in the shape of `AVAssetDownloadConfiguration`: a title and
/// the primary content's variant qualifier and media selections.
///
/// ```swift
/// var configuration = CachingAssetDownloadConfiguration(asset: asset, title: "Film")
/// configuration.variantQualifier = .maximumResolution(width: 1280, height: 720)  // default: .highest
/// configuration.audio = .languages(["en", "de"])
/// configuration.subtitles = .default
/// ```
public struct CachingAssetDownloadConfiguration: Sendable {
    /// The playlist or file to download.
    public var url: URL
    /// A title for people.
    public var title: String
    /// Which variant (`AVAssetVariantQualifier`). Default: `highest`.
    public var variantQualifier: DownloadSelection.Variant = .highest
    /// Which audio renditions. Default: `default`.
    public var audio: DownloadSelection.Renditions = .default
    /// Which subtitle renditions. Default: `none`.
    public var subtitles: DownloadSelection.Renditions = .none

    /// A configuration for `asset`'s origin URL.
    public init(asset: CachingURLAsset, title: String) {
        self.init(url: asset.originalURL, title: title)
    }

    /// A configuration for `url` (http or https).
    public init(url: URL, title: String) {
        self.url = url
        self.title = title
    }

    /// The selection the download manager resolves.
    var selection: DownloadSelection {
        DownloadSelection(variant: variantQualifier, audio: audio, subtitles: subtitles)
    }
}

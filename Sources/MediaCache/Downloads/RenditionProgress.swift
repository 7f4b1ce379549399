import Foundation

/// The time ranges of one selected playlist (the variant, an audio or subtitle rendition) that
/// are stored, against the range expected: the shape of `AVAssetDownloadDelegate`'s
/// `didLoad timeRange … timeRangeExpectedToLoad`, for every rendition.
public struct RenditionProgress: Hashable, Sendable, Codable {
    /// The playlist.
    public var url: URL
    /// What it plays.
    public var kind: AssetPlaylistKind
    /// Its name.
    public var name: String
    /// A rendition's language.
    public var language: String?
    /// The time range it covers, from 0 to its duration, in seconds.
    public var expected: Range<Double>
    /// The time ranges stored, merged and in order.
    public var loaded: [Range<Double>]

    public init(
        url: URL, kind: AssetPlaylistKind, name: String, language: String?, expected: Range<Double>,
        loaded: [Range<Double>]
    ) {
        self.url = url
        self.kind = kind
        self.name = name
        self.language = language
        self.expected = expected
        self.loaded = loaded
    }

    /// The seconds stored.
    public var loadedSeconds: Double { loaded.reduce(0) { $0 + $1.upperBound - $1.lowerBound } }

    /// Adds `range` to ``loaded``, merging ranges that touch.
    mutating func load(_ range: Range<Double>) {
        var merged = range
        var kept: [Range<Double>] = []
        for existing in loaded {
            if existing.upperBound + 0.000_5 < merged.lowerBound || merged.upperBound + 0.000_5 < existing.lowerBound {
                kept.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)..<max(existing.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        loaded = kept.sorted { $0.lowerBound < $1.lowerBound }
    }
}

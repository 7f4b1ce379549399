/// A multivariant playlist as a player reads it: the variants to choose from by bandwidth and
/// the renditions (audio, video, subtitles, closed captions) their groups name.
///
/// ```swift
/// let multivariant = try MultivariantPlaylist(try Playlist(parsing: text))
/// let first = multivariant.variants.first                     // where a player starts
/// let audio = multivariant.renditions(ofGroup: first?.audio)  // its audio languages
/// ```
public struct MultivariantPlaylist: Hashable, Sendable {
    /// The variants (`EXT-X-STREAM-INF`), in order.
    public var variants: [Variant]
    /// The I-frame variants (`EXT-X-I-FRAME-STREAM-INF`).
    public var iFrameVariants: [Variant]
    /// The renditions (`EXT-X-MEDIA`).
    public var renditions: [Rendition]
    /// Keys a player may load ahead (`EXT-X-SESSION-KEY`).
    public var sessionKeys: [Key]
    /// `EXT-X-START`, when given.
    public var start: StartPoint?
    /// Whether `EXT-X-INDEPENDENT-SEGMENTS` is set.
    public var hasIndependentSegments: Bool

    /// The renditions of `group`; none for `nil`.
    public func renditions(ofGroup group: String?) -> [Rendition] {
        guard let group else { return [] }
        return renditions.filter { $0.groupID == group }
    }
}

/// A variant stream.
public struct Variant: Hashable, Sendable {
    /// The media playlist's URI, as written, variables substituted.
    public var uri: String
    /// `BANDWIDTH`: peak bits per second.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`, when given.
    public var averageBandwidth: Int?
    /// `CODECS`, when given.
    public var codecs: String?
    /// `RESOLUTION` as written, such as `1280x720`.
    public var resolution: String?
    /// `FRAME-RATE`, when given.
    public var frameRate: Double?
    /// `AUDIO`: the group of its audio renditions.
    public var audio: String?
    /// `VIDEO`: the group of its video renditions.
    public var video: String?
    /// `SUBTITLES`: the group of its subtitle renditions.
    public var subtitles: String?
    /// `CLOSED-CAPTIONS`: the group of its closed captions, or `NONE`.
    public var closedCaptions: String?
}

/// An alternative rendition (`EXT-X-MEDIA`).
public struct Rendition: Hashable, Sendable {
    /// `TYPE`.
    public enum MediaType: String, Hashable, Sendable {
        case audio = "AUDIO"
        case video = "VIDEO"
        case subtitles = "SUBTITLES"
        case closedCaptions = "CLOSED-CAPTIONS"
    }

    /// `TYPE`.
    public var type: MediaType
    /// `GROUP-ID`.
    public var groupID: String
    /// `NAME`.
    public var name: String
    /// `LANGUAGE`, when given.
    public var language: String?
    /// `URI`, as written; `nil` when the media is in the variant's own stream (and always for
    /// closed captions).
    public var uri: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES`.
    public var isAutoselect: Bool
    /// `FORCED=YES`.
    public var isForced: Bool
    /// `CHANNELS`, when given.
    public var channels: String?
}

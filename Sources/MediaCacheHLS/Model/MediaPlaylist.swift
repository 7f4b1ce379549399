import MediaCache

/// A media playlist as a player reads it: segments with their durations, byte ranges, keys and
/// init sections, and the playlist's sequence numbers and type.
///
/// ```swift
/// let media = try MediaPlaylist(try Playlist(parsing: text))
/// let start = media.segments.prefix { $0.startTime < 10 }    // what plays in the first 10 s
/// if media.isFinished { /* VOD: cache it, replay it offline */ }
/// ```
public struct MediaPlaylist: Hashable, Sendable {
    /// Whether segments may be added (`EVENT`) or none will change (`VOD`).
    public enum PlaylistType: String, Hashable, Sendable {
        case event = "EVENT"
        case vod = "VOD"
    }

    /// `EXT-X-TARGETDURATION`: the longest segment, in whole seconds.
    public var targetDuration: Int
    /// `EXT-X-MEDIA-SEQUENCE`: the first segment's number.
    public var mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE`: the first segment's discontinuity number.
    public var discontinuitySequence: Int
    /// `EXT-X-PLAYLIST-TYPE`, when given.
    public var playlistType: PlaylistType?
    /// Whether `EXT-X-ENDLIST` says no segment will be added.
    public var hasEndList: Bool
    /// Whether `EXT-X-INDEPENDENT-SEGMENTS` is set.
    public var hasIndependentSegments: Bool
    /// `EXT-X-START`, when given.
    public var start: StartPoint?
    /// The segments, in order.
    public var segments: [Segment]

    /// Whether the playlist will not change: a VOD playlist or one that ended. Such a playlist
    /// can be cached and replayed offline; any other must be reloaded.
    public var isFinished: Bool { hasEndList || playlistType == .vod }

    /// The sum of the segments' durations, in seconds.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// One media segment and what applies to it.
public struct Segment: Hashable, Sendable {
    /// The URI, as written (relative to the playlist), variables substituted.
    public var uri: String
    /// `EXTINF`: its duration in seconds.
    public var duration: Double
    /// `EXTINF`'s title, when given.
    public var title: String?
    /// When the segment starts, in seconds from the playlist's first segment.
    public var startTime: Double
    /// Its media sequence number.
    public var mediaSequence: Int
    /// Its discontinuity sequence number.
    public var discontinuitySequence: Int
    /// Whether `EXT-X-DISCONTINUITY` precedes it.
    public var isDiscontinuity: Bool
    /// The bytes of the resource it is (`EXT-X-BYTERANGE`, the implicit offset resolved), or
    /// `nil` for the whole resource.
    public var byteRange: ByteRange?
    /// The keys that apply to it, one per key format; empty when unencrypted.
    public var keys: [Key]
    /// The init section that applies to it (`EXT-X-MAP`).
    public var initSection: InitSection?
    /// `EXT-X-PROGRAM-DATE-TIME`, as written.
    public var programDateTime: String?
    /// Whether `EXT-X-GAP` says it must not be loaded.
    public var isGap: Bool
}

/// A key (`EXT-X-KEY`, `EXT-X-SESSION-KEY`).
public struct Key: Hashable, Sendable {
    /// `METHOD`: `AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR` (never `NONE`: that ends a key).
    public var method: String
    /// `URI`, as written, variables substituted.
    public var uri: String?
    /// `IV`, as written (`0x…`).
    public var iv: String?
    /// `KEYFORMAT`; `identity` when not given.
    public var keyFormat: String
    /// `KEYFORMATVERSIONS`, when given.
    public var keyFormatVersions: String?
}

/// An init section (`EXT-X-MAP`).
public struct InitSection: Hashable, Sendable {
    /// `URI`, as written, variables substituted.
    public var uri: String
    /// `BYTERANGE`, or `nil` for the whole resource.
    public var byteRange: ByteRange?
}

/// `EXT-X-START`: where a player should start.
public struct StartPoint: Hashable, Sendable {
    /// `TIME-OFFSET` in seconds; negative counts from the end.
    public var timeOffset: Double
    /// `PRECISE=YES`.
    public var isPrecise: Bool
}

import Foundation

/// What a playlist of an HLS asset plays, as recorded in the store.
public enum AssetPlaylistKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A media playlist played on its own, with no multivariant playlist above it.
    case media
    /// A variant stream (`EXT-X-STREAM-INF`).
    case variant
    /// An I-frame variant (`EXT-X-I-FRAME-STREAM-INF`).
    case iFrame = "i-frame"
    /// An audio rendition (`EXT-X-MEDIA:TYPE=AUDIO`).
    case audio
    /// A video rendition.
    case video
    /// A subtitle rendition.
    case subtitles
}

/// A media playlist of an asset: what a multivariant playlist lists.
public struct AssetPlaylist: Hashable, Sendable {
    /// Its URL, resolved.
    public var url: URL
    /// What it plays.
    public var kind: AssetPlaylistKind
    /// How a person tells it apart, such as `1280x720 2.5 Mbit/s` or `English (en)`.
    public var name: String

    /// Creates a playlist description.
    public init(url: URL, kind: AssetPlaylistKind, name: String) {
        self.url = url
        self.kind = kind
        self.name = name
    }
}

/// A resource a media playlist names: a segment, a key or an init section.
public struct AssetMember: Hashable, Sendable {
    /// What the resource is to the playlist.
    public enum Role: String, Hashable, Sendable, Codable {
        case segment
        case key
        case initSection = "init-section"
    }

    /// Its URL, resolved.
    public var url: URL
    /// What it is.
    public var role: Role
    /// A segment's duration in seconds; `nil` for keys and init sections.
    public var duration: Double?
    /// The bytes of the resource it is, or `nil` for all of them.
    public var byteRange: ByteRange?

    /// Creates a member description.
    public init(url: URL, role: Role, duration: Double? = nil, byteRange: ByteRange? = nil) {
        self.url = url
        self.role = role
        self.duration = duration
        self.byteRange = byteRange
    }
}

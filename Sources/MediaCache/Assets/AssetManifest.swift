import Foundation

/// What a playlist of an HLS asset plays, as recorded in the store. New kinds may be added
/// as HLS grows; a `switch` over one needs a `default`.
public struct AssetPlaylistKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind's name, as the store and the API spell it.
    public let rawValue: String

    /// The kind called `rawValue`; a name this version does not know is kept as it is.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A media playlist played on its own, with no multivariant playlist above it.
    public static let media = Self(rawValue: "media")
    /// A variant stream (`EXT-X-STREAM-INF`).
    public static let variant = Self(rawValue: "variant")
    /// An I-frame variant (`EXT-X-I-FRAME-STREAM-INF`).
    public static let iFrame = Self(rawValue: "i-frame")
    /// An audio rendition (`EXT-X-MEDIA:TYPE=AUDIO`).
    public static let audio = Self(rawValue: "audio")
    /// A video rendition.
    public static let video = Self(rawValue: "video")
    /// A subtitle rendition.
    public static let subtitles = Self(rawValue: "subtitles")

    public var description: String { rawValue }
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
    /// What the resource is to the playlist. New roles may be added as HLS grows.
    public struct Role: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The role's name, as the store spells it.
        public let rawValue: String

        /// The role called `rawValue`; a name this version does not know is kept as it is.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A media segment.
        public static let segment = Self(rawValue: "segment")
        /// A decryption key (`EXT-X-KEY`).
        public static let key = Self(rawValue: "key")
        /// An initialization section (`EXT-X-MAP`).
        public static let initSection = Self(rawValue: "init-section")

        public var description: String { rawValue }
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

import Foundation

/// An HLS asset as the store holds it: its playlists with the seconds of each that are cached,
/// and the resources that belong to it (see ``MediaStore/assets()``).
public struct StoreAsset: Hashable, Sendable {
    /// One media playlist of the asset, with how much of it is cached.
    public struct Playlist: Hashable, Sendable, Codable {
        /// The playlist's cache key.
        public var key: ResourceKey
        /// Its URL.
        public var url: String
        /// What it plays.
        public var kind: AssetPlaylistKind
        /// How a person tells it apart.
        public var name: String
        /// The seconds of its segments recorded so far (all of them once it was played).
        public var seconds: Double
        /// The seconds of those whose bytes are all cached.
        public var cachedSeconds: Double
        /// Bytes cached of the playlist and the segments, keys and init sections it names.
        public var cachedBytes: Int64
    }

    /// The key of its top playlist: the multivariant playlist, or a media playlist played on
    /// its own.
    public var key: ResourceKey
    /// The top playlist's URL.
    public var url: String
    /// The media playlists, in the order the multivariant playlist lists them.
    public var playlists: [Playlist]
    /// Bytes cached over every resource of the asset, each counted once.
    public var cachedBytes: Int64
    /// The latest use of any of its resources; `nil` when none is stored.
    public var lastAccess: Date?
    /// Every resource that belongs to it, stored or not: the top playlist, the media
    /// playlists, then the segments, keys and init sections in the order they were recorded.
    public var memberKeys: [ResourceKey]
}

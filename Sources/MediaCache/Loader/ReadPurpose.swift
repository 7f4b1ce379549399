/// Why bytes are read: a player is waiting for them, or they are fetched ahead of need.
///
/// Preloads yield to playback (see ``PlaybackActivity``) and count apart in
/// ``CacheStatistics``.
public enum ReadPurpose: String, Hashable, Sendable, Codable {
    /// A player asked for the bytes.
    case playback
    /// A preload fetches the bytes before any player asks.
    case preload
}

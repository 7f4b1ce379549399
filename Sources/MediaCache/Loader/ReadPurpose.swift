/// Why bytes are read: a player is waiting for them, they are fetched ahead of need, or they
/// are downloaded for offline playback.
///
/// Preloads and downloads yield to playback (see ``PlaybackActivity``); preloads count apart
/// in ``CacheStatistics``, and downloads only as bytes fetched from the origin.
public enum ReadPurpose: String, Hashable, Sendable, Codable {
    /// A player asked for the bytes.
    case playback
    /// A preload fetches the bytes before any player asks.
    case preload
    /// An offline download keeps the bytes.
    case download
}

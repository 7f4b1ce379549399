/// Why bytes are read: a player is waiting for them, they are fetched ahead of need, or they
/// are downloaded for offline playback.
///
/// Preloads and downloads yield to playback (see ``PlaybackActivity``); preloads count apart
/// in ``CacheStatistics``, and downloads only as bytes fetched from the origin. A release may
/// add purposes, so a `switch` over one needs a `default`.
///
/// ```swift
/// for try await part in loader.read(url, ByteRequest(offset: 0, length: 1 << 20), purpose: .preload) {
///     _ = part   // stored as it arrives; yields to any playback reader
/// }
/// ```
public struct ReadPurpose: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The purpose's name, as statistics and the API spell it: `playback`, `preload`, `download`.
    public let name: String

    private init(_ name: String) {
        self.name = name
    }

    /// A player asked for the bytes.
    public static let playback = ReadPurpose("playback")
    /// A preload fetches the bytes before any player asks.
    public static let preload = ReadPurpose("preload")
    /// An offline download keeps the bytes.
    public static let download = ReadPurpose("download")

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public var description: String { name }
}

import Foundation

/// How long a stored playlist may be served before the origin is asked again.
///
/// A live media playlist (no `EXT-X-ENDLIST`, not `PLAYLIST-TYPE:VOD`) is served for at most
/// half its target duration, the reload interval of RFC 8216 §6.3.4, so a player never gets a
/// window older than that while the origin answers. A finished (VOD) playlist and a
/// multivariant playlist change rarely; they are served for ``staticMaximumAge``, then
/// revalidated with the origin's validators.
///
/// ```swift
/// let freshness = PlaylistFreshness(staticMaximumAge: .seconds(300))
/// let playlist = try await loader.revalidatedContent(of: url, maximumLength: Playlist.maximumSize,
///                                                    maximumAge: freshness.maximumAge(of:))
/// ```
public struct PlaylistFreshness: Hashable, Sendable {
    /// How long a VOD or multivariant playlist is served before it is revalidated.
    /// Default: 60 s.
    public var staticMaximumAge: Duration

    /// Creates a policy.
    public init(staticMaximumAge: Duration = .seconds(60)) {
        self.staticMaximumAge = staticMaximumAge
    }

    /// How long the playlist `body` may be served without asking the origin.
    ///
    /// Reads only the tags that decide it, without parsing the playlist.
    public func maximumAge(of body: Data) -> Duration {
        guard let targetDuration = Self.targetDuration(in: body), !Self.isFinished(body) else {
            return staticMaximumAge
        }
        return targetDuration / 2
    }

    /// Whether `body` carries `EXT-X-ENDLIST` or `EXT-X-PLAYLIST-TYPE:VOD`.
    static func isFinished(_ body: Data) -> Bool {
        body.range(of: Data("#EXT-X-ENDLIST".utf8), options: .backwards) != nil
            || body.range(of: Data("#EXT-X-PLAYLIST-TYPE:VOD".utf8)) != nil
    }

    /// The `EXT-X-TARGETDURATION` value, `nil` when absent (a multivariant playlist) or not a
    /// positive number.
    static func targetDuration(in body: Data) -> Duration? {
        guard let tag = body.range(of: Data("#EXT-X-TARGETDURATION:".utf8)) else { return nil }
        let digits = body[tag.upperBound...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 9, let seconds = Int(String(decoding: digits, as: UTF8.self)),
              seconds > 0 else { return nil }
        return .seconds(seconds)
    }
}

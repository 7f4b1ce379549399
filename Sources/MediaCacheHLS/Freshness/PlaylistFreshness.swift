import Foundation

/// How long a stored playlist may be served before the origin is asked again.
///
/// A live media playlist (no `EXT-X-ENDLIST`, not `PLAYLIST-TYPE:VOD`) is served for at most
/// half its target duration, the reload interval of RFC 8216 §6.3.4, so a player never gets a
/// window older than that while the origin answers; one whose target duration cannot be read
/// is asked for at every read. A finished (VOD) playlist and a
/// multivariant playlist change rarely; they are served for ``staticMaximumAge``, then
/// revalidated with the origin's validators.
///
/// When the origin fails, the last copy is served, marked stale: a finished or multivariant
/// playlist for as long as the outage lasts (it plays offline), a live one for
/// ``liveOutageTargetDurations`` target durations since the origin last confirmed it, so that
/// a player rides out a short outage but ends the stream after a long one, as it would reading
/// the origin directly.
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
    /// For how many target durations since the origin last confirmed it a live playlist's
    /// last copy is served while the origin fails. Default: 3.
    public var liveOutageTargetDurations: Int

    /// Creates a policy.
    public init(staticMaximumAge: Duration = .seconds(60), liveOutageTargetDurations: Int = 3) {
        self.staticMaximumAge = staticMaximumAge
        self.liveOutageTargetDurations = liveOutageTargetDurations
    }

    /// How long the playlist `body` may be served without asking the origin.
    ///
    /// Reads only the tags that decide it, without parsing the playlist.
    public func maximumAge(of body: Data) -> Duration {
        if Self.isFinished(body) { return staticMaximumAge }
        if let targetDuration = Self.targetDuration(in: body) { return targetDuration / 2 }
        // A live media playlist whose target duration cannot be read is asked for every time.
        return body.range(of: Data("#EXTINF".utf8)) == nil ? staticMaximumAge : .zero
    }

    /// How long after the origin last confirmed it the live playlist `body` is still served
    /// while the origin fails; `nil` for a finished or multivariant playlist, served as long
    /// as the outage lasts.
    public func maximumStaleAge(of body: Data) -> Duration? {
        guard let targetDuration = Self.targetDuration(in: body), !Self.isFinished(body) else { return nil }
        return targetDuration * liveOutageTargetDurations
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
            seconds > 0
        else { return nil }
        return .seconds(seconds)
    }
}

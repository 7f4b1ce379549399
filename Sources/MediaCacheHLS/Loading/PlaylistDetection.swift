import Foundation
import MediaCache

/// Tells HLS playlists from other resources, as the proxy and the preloader must.
public enum PlaylistDetection {
    /// The media types of HLS playlists (RFC 8216 §4; compared without case and parameters).
    public static let mediaTypes: Set<String> = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl",
    ]

    /// Types that say nothing of the content, whose first bytes decide.
    static let genericTypes: Set<String> = ["text/plain", "application/octet-stream", "binary/octet-stream"]

    /// The media type of a `Content-Type` value, lowercased, without its parameters:
    /// `application/vnd.apple.mpegurl` for ` Application/VND.Apple.MPEGURL; charset=utf-8`.
    ///
    /// Every proxied request asks. An ASCII value (as HTTP's are) is read byte by byte, without
    /// the `Character` walk and Unicode lowercasing it otherwise takes.
    static func mediaType(of contentType: String) -> String {
        let utf8 = contentType.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return String(contentType.prefix { $0 != ";" }.filter { !$0.isWhitespace }).lowercased()
        }
        var type: [UInt8] = []
        type.reserveCapacity(utf8.count)
        for byte in utf8 {
            if byte == UInt8(ascii: ";") { break }
            // ASCII whitespace, as `Character.isWhitespace` has it: tab to carriage return, space.
            if (0x09...0x0D).contains(byte) || byte == 0x20 { continue }
            type.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        }
        return String(decoding: type, as: UTF8.self)
    }

    /// Whether `url`'s path ends in `.m3u8` or `.m3u`, which names a playlist whatever its type.
    public static func hasPlaylistExtension(_ url: URL) -> Bool {
        isPlaylistExtension(pathExtension(of: url))
    }

    /// The extension of `url`'s path, lowercased, as `URL.pathExtension` reads it; a caller
    /// that checks it twice asks once.
    ///
    /// Every proxied request asks. A path whose last segment is a plain name (ASCII letters,
    /// digits, `-`, `_`, `.`, no percent-escapes) with a letters-and-digits extension is read
    /// here byte by byte, which costs a fraction of Foundation's reading on every hit and miss.
    /// Any other path is Foundation's to read.
    static func pathExtension(of url: URL) -> String {
        plainPathExtension(of: url.path(percentEncoded: true)) ?? url.pathExtension.lowercased()
    }

    /// The lowercased extension of the percent-encoded `path`, when its last segment is a plain
    /// name: `mp4` for `/v/Clip.MP4`, `""` for `/v/live`; `nil` for anything else, such as an
    /// empty path, a trailing `/`, a percent-escape or a name that starts with a dot.
    static func plainPathExtension(of path: String) -> String? {
        let bytes = Array(path.utf8)
        guard let last = bytes.last, last != UInt8(ascii: "/") else { return nil }
        let segment = bytes[(bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...]
        func isNameByte(_ byte: UInt8) -> Bool {
            isExtensionByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        guard segment.allSatisfy(isNameByte) else { return nil }
        guard let dot = segment.lastIndex(of: UInt8(ascii: ".")) else { return "" }
        let name = segment[..<dot], pathExtension = segment[(dot + 1)...]
        guard !pathExtension.isEmpty, name.contains(where: { $0 != UInt8(ascii: ".") }),
            pathExtension.allSatisfy(isExtensionByte)
        else { return nil }
        return String(decoding: pathExtension.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func isExtensionByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Whether a lowercased path extension names a playlist: `m3u8` or `m3u`.
    static func isPlaylistExtension(_ pathExtension: String) -> Bool {
        pathExtension == "m3u8" || pathExtension == "m3u"
    }

    /// The extensions of media files (containers, elementary streams, subtitles), which name
    /// what a path holds as a player reads it: AVFoundation and ExoPlayer take a `.mp4` served
    /// as `application/octet-stream` for MP4, never for a playlist.
    static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "m4s", "mov", "cmfv", "cmfa", "cmft", "ts", "m2ts", "mts", "aac", "ac3", "ec3", "mp3",
        "webm", "mkv", "mka", "ogg", "oga", "opus", "flac", "wav", "mpg", "mpeg", "3gp", "vtt", "webvtt",
    ]

    /// Whether a lowercased path extension is that of a media file (``mediaExtensions``).
    static func isMediaExtension(_ pathExtension: String) -> Bool {
        mediaExtensions.contains(pathExtension)
    }

    /// Whether `url`, which the origin describes as `info`, is a playlist as far as its media
    /// type, its path, its length and its cached first bytes tell: a small resource of a
    /// generic type whose path names no media file is one when its first line is `#EXTM3U`,
    /// which `cachedFirstBytes(count)` reads from the cache; `nil` when the cache does not hold
    /// them.
    ///
    /// A server answers a cache hit at once when this says `false`: a file served as
    /// `application/octet-stream` from a path without an extension (a signed object URL) costs
    /// a read of its first 7 bytes, not a task and the responders.
    public static func isPlaylist(_ url: URL, info: ContentInfo, cachedFirstBytes: (_ count: Int) -> Data?) -> Bool? {
        let type = info.mimeType.map(mediaType(of:))
        if let type, mediaTypes.contains(type) { return true }
        let pathExtension = pathExtension(of: url)
        if isPlaylistExtension(pathExtension) { return true }
        guard type.map(genericTypes.contains) ?? true, !isMediaExtension(pathExtension), let length = info.totalLength, length >= 7,
            length <= Playlist.maximumSize
        else { return false }
        return cachedFirstBytes(signature.count).map { $0 == signature }
    }

    /// The first line of every playlist (RFC 8216 §4.3.1.1).
    private static let signature = Data("#EXTM3U".utf8)

    /// Whether `url` is a playlist: by a `.m3u8`/`.m3u` path at once; otherwise by what the
    /// origin says of it, `info` when the caller has it (else the stored record, or a probe
    /// when nothing is stored, see `contentRecord(for:purpose:)`), and, for a
    /// small resource of a generic type whose path names no media file, by an `#EXTM3U` first
    /// line (from the store when cached, else read through `loader`, so cached like any bytes).
    ///
    /// A path that names a media file (`.mp4`, `.ts`, …) is no playlist whatever its bytes, as
    /// players read it; it also spares a miss of a generic type the wait for its first bytes
    /// before its head can leave.
    ///
    /// - Throws: `LoaderError` when the origin cannot say what `url` is.
    public static func isPlaylist(
        _ url: URL, info: ContentInfo? = nil, loader: MediaLoader, purpose: ReadPurpose = .playback
    ) async throws(LoaderError) -> Bool {
        if hasPlaylistExtension(url) { return true }
        let described: ContentInfo
        if let info {
            described = info
        } else {
            described = try await loader.contentRecord(for: url, purpose: purpose).contentInfo
        }
        // Cached, the first line costs one read of the store, not a reader of its own: every
        // request for a file of a generic type asks.
        let cached = isPlaylist(url, info: described) { count in
            loader.storedRecord(for: url).flatMap { loader.cachedBytes(ByteRange(0, Int64(count)), of: $0) }
        }
        if let cached { return cached }
        var head = Data()
        do {
            for try await chunk in loader.read(url, ByteRequest(offset: 0, length: Int64(signature.count)), purpose: purpose) {
                head.append(chunk.bytes)
            }
        } catch {
            return false
        }
        return head == signature
    }
}

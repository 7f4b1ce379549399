import Foundation

extension Playlist {
    /// The longest line accepted; a longer one is refused rather than buffered without end.
    public static let maximumLineLength = 64 << 10

    /// The largest playlist a reader should hold in memory (16 MiB): a 24-hour VOD playlist of
    /// two-second segments is under 2 MiB.
    public static let maximumSize: Int64 = 16 << 20

    /// Tags whose value is an attribute list (RFC 8216 and its second edition).
    static let attributeTags: Set<String> = [
        "EXT-X-KEY", "EXT-X-SESSION-KEY", "EXT-X-MAP", "EXT-X-MEDIA", "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF",
        "EXT-X-SESSION-DATA", "EXT-X-START", "EXT-X-DEFINE", "EXT-X-PART", "EXT-X-PART-INF", "EXT-X-PRELOAD-HINT",
        "EXT-X-RENDITION-REPORT", "EXT-X-SERVER-CONTROL", "EXT-X-SKIP", "EXT-X-DATERANGE", "EXT-X-CONTENT-STEERING",
    ]

    /// Parses playlist bytes, which must be UTF-8 (a byte-order mark is dropped).
    ///
    /// - Throws: ``PlaylistError`` with the line, the tag and what is wrong.
    public init(parsing data: Data) throws(PlaylistError) {
        try self.init(bytes: Array(data))
    }

    /// Parses playlist text. Accepts what real playlists carry, as players do: CR LF line ends,
    /// blank lines, whitespace around URIs, lower-case hexadecimal, unknown tags and attributes
    /// (kept in place), and tags whose value cannot be read (a malformed attribute list or
    /// number, an unknown playlist type, a variant without its URI line), kept as their text
    /// (``Tag/Value/text(_:)``), so that a playlist written back loses nothing; the typed
    /// readers (``MediaPlaylist``, ``MultivariantPlaylist``) name what is wrong with them.
    ///
    /// - Throws: ``PlaylistError`` with the line and what is wrong, for what is no playlist
    ///   text at all: no `#EXTM3U` first, text that is not UTF-8, control characters, an
    ///   overlong line.
    public init(parsing text: String) throws(PlaylistError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Splits the bytes into lines (LF or CR LF) and reads each; bytes, not characters, so that
    /// a playlist of tens of thousands of segments parses in a few milliseconds.
    private init(bytes: [UInt8]) throws(PlaylistError) {
        var rows = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if rows.last?.isEmpty == true { rows.removeLast() }
        var first = rows.first.map(Self.trimmed) ?? []
        if first.starts(with: [0xEF, 0xBB, 0xBF]) { first = first.dropFirst(3) }
        guard first.elementsEqual("#EXTM3U".utf8) else { throw PlaylistError(line: 1, tag: nil, reason: "a playlist starts with #EXTM3U") }
        var lines: [Line] = []
        lines.reserveCapacity(rows.count)
        for (offset, row) in rows.enumerated().dropFirst() {
            lines.append(try Self.line(row, number: offset + 1))
        }
        self.init(lines: lines)
    }

    private static func line(_ row: ArraySlice<UInt8>, number: Int) throws(PlaylistError) -> Line {
        guard row.count <= maximumLineLength else {
            throw PlaylistError(line: number, tag: nil, reason: "the line is longer than \(maximumLineLength) bytes")
        }
        let bytes = trimmed(row)
        if let control = bytes.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw PlaylistError(line: number, tag: nil, reason: "control character U+\(String(format: "%04X", control))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PlaylistError(line: number, tag: nil, reason: "the line is not UTF-8 text")
        }
        if bytes.isEmpty { return .blank }
        guard bytes.first == UInt8(ascii: "#") else { return .uri(text) }
        guard bytes.starts(with: "#EXT".utf8) else { return .comment(String(text.dropFirst())) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return .tag(Tag(String(text.dropFirst()))) }
        let name = String(decoding: bytes[(bytes.startIndex + 1)..<colon], as: UTF8.self)
        let value = String(decoding: bytes[(colon + 1)...], as: UTF8.self)
        if attributeTags.contains(name), let list = try? AttributeList(parsing: value) {
            return .tag(Tag(name, .attributes(list)))
        }
        return .tag(Tag(name, .text(value)))
    }

    /// `row` without its CR and surrounding spaces and tabs.
    private static func trimmed(_ row: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var text = row
        while let last = text.last, last == 0x0D || last == 0x20 || last == 0x09 { text = text.dropLast() }
        while let first = text.first, first == 0x20 || first == 0x09 { text = text.dropFirst() }
        return text
    }
}

/// Why a playlist cannot be read: where, in which tag, and what is wrong.
public struct PlaylistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line, counting from 1.
    public var line: Int
    /// The tag the line holds, when it holds one.
    public var tag: String?
    /// What is wrong.
    public var reason: String

    /// An error at `line` in `tag`.
    public init(line: Int, tag: String?, reason: String) {
        self.line = line
        self.tag = tag
        self.reason = reason
    }

    public var description: String {
        "playlist line \(line)\(tag.map { " (\($0))" } ?? ""): \(reason)"
    }
}

import Foundation

extension Playlist {
    /// The longest line accepted; a longer one is refused rather than buffered without end.
    public static let maximumLineLength = 64 << 10

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
        guard let text = String(data: data, encoding: .utf8) else {
            throw PlaylistError(line: 1, tag: nil, reason: "the playlist is not UTF-8 text")
        }
        try self.init(parsing: text)
    }

    /// Parses playlist text. Accepts what real playlists carry: CR LF line ends, blank lines,
    /// whitespace around URIs, lower-case hexadecimal, unknown tags and attributes (kept in
    /// place).
    ///
    /// - Throws: ``PlaylistError`` with the line, the tag and what is wrong: no `#EXTM3U` first,
    ///   control characters, an overlong line, a malformed attribute list or number, a variant
    ///   without its URI line.
    public init(parsing text: String) throws(PlaylistError) {
        // CR LF is one Character in Swift: split on both line ends.
        var rows = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if rows.last?.isEmpty == true { rows.removeLast() }
        var first = rows.first.map { Self.trimmed($0) } ?? ""
        if first.hasPrefix("\u{FEFF}") { first = first.dropFirst() }
        guard first == "#EXTM3U" else { throw PlaylistError(line: 1, tag: nil, reason: "a playlist starts with #EXTM3U") }
        var lines: [Line] = []
        var awaitingVariantURI: Int?
        for (offset, row) in rows.enumerated().dropFirst() {
            let number = offset + 1
            let line = try Self.line(row, number: number)
            switch line {
            case .tag(let tag) where tag.name == "EXT-X-STREAM-INF":
                if let pending = awaitingVariantURI { throw PlaylistError(line: pending, tag: tag.name, reason: "no URI line follows the variant") }
                awaitingVariantURI = number
            case .uri:
                awaitingVariantURI = nil
            default:
                break
            }
            lines.append(line)
        }
        if let pending = awaitingVariantURI {
            throw PlaylistError(line: pending, tag: "EXT-X-STREAM-INF", reason: "no URI line follows the variant")
        }
        self.init(lines: lines)
    }

    private static func line(_ row: Substring, number: Int) throws(PlaylistError) -> Line {
        guard row.utf8.count <= maximumLineLength else {
            throw PlaylistError(line: number, tag: nil, reason: "the line is longer than \(maximumLineLength) bytes")
        }
        let text = trimmed(row)
        if let control = text.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
            throw PlaylistError(line: number, tag: nil, reason: "control character U+\(String(format: "%04X", control.value))")
        }
        if text.isEmpty { return .blank }
        guard text.hasPrefix("#") else { return .uri(String(text)) }
        guard text.hasPrefix("#EXT") else { return .comment(String(text.dropFirst())) }
        let body = text.dropFirst()
        guard let colon = body.firstIndex(of: ":") else { return .tag(Tag(String(body))) }
        let name = String(body[..<colon])
        let value = String(body[body.index(after: colon)...])
        if attributeTags.contains(name) {
            do {
                return .tag(Tag(name, .attributes(try AttributeList(parsing: value))))
            } catch {
                throw PlaylistError(line: number, tag: name, reason: "\(error)")
            }
        }
        if let problem = TagValueCheck.problem(name: name, value: value) {
            throw PlaylistError(line: number, tag: name, reason: problem)
        }
        return .tag(Tag(name, .text(value)))
    }

    /// `row` without its line end and surrounding spaces and tabs.
    private static func trimmed(_ row: Substring) -> Substring {
        var text = row
        while let last = text.last, last == "\r" || last == " " || last == "\t" { text = text.dropLast() }
        return text.drop { $0 == " " || $0 == "\t" }
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

import MediaCache

/// Reads typed values out of a playlist's lines for the semantic models, with errors that name
/// the line and tag: a playlist's lines are its rows after `#EXTM3U`, so line `i` is row `i + 2`.
struct PlaylistReader {
    let variables: [String: String]

    init(_ playlist: Playlist) {
        variables = PlaylistRewriter.definitions(in: playlist)
    }

    static func lineNumber(_ index: Int) -> Int { index + 2 }

    func error(_ index: Int, _ tag: String?, _ reason: String) -> PlaylistError {
        PlaylistError(line: Self.lineNumber(index), tag: tag, reason: reason)
    }

    /// The attribute list of `tag`; when the parser kept its value as text because it could
    /// not be read (see `Playlist.init(parsing:)`), the reason it cannot.
    func attributes(of tag: Tag, _ index: Int) throws(PlaylistError) -> AttributeList {
        switch tag.value {
        case .attributes(let list):
            return list
        case .text(let text):
            do {
                return try AttributeList(parsing: text)
            } catch {
                throw self.error(index, tag.name, "\(error)")
            }
        case .none:
            throw self.error(index, tag.name, "the attribute list is missing")
        }
    }

    /// `text` with the playlist's variables substituted.
    func substituted(_ text: String) -> String {
        PlaylistRewriter.substitute(variables, in: text)
    }

    /// A whole number that fits an `Int`.
    func integer(_ text: String?, _ index: Int, _ tag: String, _ what: String) throws(PlaylistError) -> Int {
        guard let text else { throw error(index, tag, "\(what) is missing") }
        guard let value = Int(text), value >= 0 else { throw error(index, tag, "\(what) '\(text)' is not a whole number in range") }
        return value
    }

    /// A (signed) decimal number.
    func decimal(_ text: String?, _ index: Int, _ tag: String, _ what: String) throws(PlaylistError) -> Double {
        guard let text else { throw error(index, tag, "\(what) is missing") }
        guard let value = Double(text), value.isFinite, !text.contains("e"), !text.contains("E") else {
            throw error(index, tag, "\(what) '\(text)' is not a number")
        }
        return value
    }

    /// `length[@offset]` as a range, with `offset` when the text gives none; `nil` offset
    /// stays unresolved for the caller.
    func byteRange(_ text: String, _ index: Int, _ tag: String) throws(PlaylistError) -> (length: Int64, offset: Int64?) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = Int64(parts[0]), length >= 0 else {
            throw error(index, tag, "'\(text)' is not a byte range (length[@offset])")
        }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = Int64(parts[1]), offset >= 0, !offset.addingReportingOverflow(length).overflow else {
            throw error(index, tag, "'\(text)' is not a byte range (length[@offset])")
        }
        return (length, offset)
    }

    /// An `EXT-X-KEY` or `EXT-X-SESSION-KEY`; `nil` for `METHOD=NONE`.
    func key(_ attributes: AttributeList, _ index: Int, _ tag: String) throws(PlaylistError) -> Key? {
        guard let method = attributes["METHOD"] else { throw error(index, tag, "METHOD is missing") }
        if method == "NONE" { return nil }
        guard let uri = attributes["URI"] else { throw error(index, tag, "URI is missing for METHOD=\(method)") }
        return Key(
            method: method, uri: substituted(uri), iv: attributes["IV"], keyFormat: attributes["KEYFORMAT"] ?? "identity",
            keyFormatVersions: attributes["KEYFORMATVERSIONS"])
    }

    /// An `EXT-X-START`.
    func start(_ attributes: AttributeList, _ index: Int) throws(PlaylistError) -> StartPoint {
        StartPoint(
            timeOffset: try decimal(attributes["TIME-OFFSET"], index, "EXT-X-START", "TIME-OFFSET"),
            isPrecise: attributes["PRECISE"] == "YES")
    }
}

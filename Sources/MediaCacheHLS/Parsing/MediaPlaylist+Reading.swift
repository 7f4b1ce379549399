import MediaCache

extension MediaPlaylist {
    /// Reads the media playlist `playlist` holds.
    ///
    /// - Throws: ``PlaylistError`` naming the line and tag: a multivariant playlist, no
    ///   `EXT-X-TARGETDURATION`, a segment without `EXTINF`, a byte range without an offset
    ///   that does not follow a range of the same resource, a key without `URI`, numbers out
    ///   of range.
    public init(_ playlist: Playlist) throws(PlaylistError) {
        guard !playlist.isMultivariant else {
            throw PlaylistError(line: 1, tag: nil, reason: "a multivariant playlist is not a media playlist")
        }
        let reader = PlaylistReader(playlist)
        var building = MediaPlaylist(
            targetDuration: -1, mediaSequence: 0, discontinuitySequence: 0, playlistType: nil,
            hasEndList: false, hasIndependentSegments: false, start: nil, segments: [])
        var next = PendingSegment()
        var keys: [Key] = []
        var initSection: InitSection?
        var mediaSequence: Int?
        var discontinuitySequence = 0
        var time = 0.0
        for (index, line) in playlist.lines.enumerated() {
            switch line {
            case .tag(let tag):
                let text = tag.value.text
                switch tag.name {
                case "EXT-X-TARGETDURATION": building.targetDuration = try reader.integer(text, index, tag.name, "the target duration")
                case "EXT-X-MEDIA-SEQUENCE": mediaSequence = try reader.integer(text, index, tag.name, "the media sequence")
                case "EXT-X-DISCONTINUITY-SEQUENCE":
                    discontinuitySequence = try reader.integer(text, index, tag.name, "the discontinuity sequence")
                    building.discontinuitySequence = discontinuitySequence
                case "EXT-X-PLAYLIST-TYPE": building.playlistType = text.flatMap(PlaylistType.init(rawValue:))
                case "EXT-X-ENDLIST": building.hasEndList = true
                case "EXT-X-INDEPENDENT-SEGMENTS": building.hasIndependentSegments = true
                case "EXT-X-START": if let list = tag.attributes { building.start = try reader.start(list, index) }
                case "EXTINF":
                    let parts = (text ?? "").split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                    next.duration = try reader.decimal(parts.first.map(String.init), index, tag.name, "the duration")
                    next.title = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
                case "EXT-X-BYTERANGE": next.range = try reader.byteRange(text ?? "", index, tag.name)
                case "EXT-X-DISCONTINUITY":
                    next.isDiscontinuity = true
                    discontinuitySequence += 1
                case "EXT-X-PROGRAM-DATE-TIME": next.programDateTime = text
                case "EXT-X-GAP": next.isGap = true
                case "EXT-X-KEY":
                    let list = try reader.attributes(of: tag, index)
                    if let key = try reader.key(list, index, tag.name) {
                        keys.removeAll { $0.keyFormat == key.keyFormat }
                        keys.append(key)
                    } else {
                        keys = []
                    }
                case "EXT-X-MAP":
                    let list = try reader.attributes(of: tag, index)
                    guard let uri = list["URI"] else { throw reader.error(index, tag.name, "URI is missing") }
                    let range = try list["BYTERANGE"].map { text throws(PlaylistError) in try reader.byteRange(text, index, tag.name) }
                    initSection = InitSection(
                        uri: reader.substituted(uri),
                        byteRange: range.map { ByteRange(offset: $0.offset ?? 0, length: $0.length) })
                default:
                    continue
                }
            case .uri(let uri):
                guard let duration = next.duration else { throw reader.error(index, nil, "the segment \(uri) has no EXTINF before it") }
                let resolved = reader.substituted(uri)
                let range = try next.range.map { range throws(PlaylistError) -> ByteRange in
                    if let offset = range.offset { return ByteRange(offset: offset, length: range.length) }
                    guard let previous = building.segments.last, previous.uri == resolved, let end = previous.byteRange?.upperBound else {
                        throw reader.error(index, "EXT-X-BYTERANGE", "a range without an offset must follow a range of the same resource")
                    }
                    return ByteRange(offset: end, length: range.length)
                }
                let sequence = (mediaSequence ?? 0) + building.segments.count
                building.segments.append(
                    Segment(
                        uri: resolved, duration: duration, title: next.title, startTime: time, mediaSequence: sequence,
                        discontinuitySequence: discontinuitySequence, isDiscontinuity: next.isDiscontinuity, byteRange: range,
                        keys: keys, initSection: initSection, programDateTime: next.programDateTime, isGap: next.isGap))
                time += duration
                next = PendingSegment()
            case .comment, .blank:
                continue
            }
        }
        guard building.targetDuration >= 0 else {
            throw PlaylistError(line: 1, tag: "EXT-X-TARGETDURATION", reason: "a media playlist needs a target duration")
        }
        building.mediaSequence = mediaSequence ?? 0
        self = building
    }
}

/// What the tags before a segment's URI line said of it.
private struct PendingSegment {
    var duration: Double?
    var title: String?
    var range: (length: Int64, offset: Int64?)?
    var isDiscontinuity = false
    var programDateTime: String?
    var isGap = false
}

extension Tag.Value {
    /// The text of a value that is not an attribute list.
    var text: String? {
        guard case .text(let text) = self else { return nil }
        return text
    }
}

extension MultivariantPlaylist {
    /// Reads the multivariant playlist `playlist` holds. A rendition of a type this version
    /// does not know is left out, as RFC 8216 §6.3.1 asks of clients.
    ///
    /// - Throws: ``PlaylistError`` naming the line and tag: a media playlist, a variant without
    ///   `BANDWIDTH` or URI, a rendition without `GROUP-ID` or `NAME`, a session key without
    ///   `URI`, numbers out of range.
    public init(_ playlist: Playlist) throws(PlaylistError) {
        guard playlist.isMultivariant else {
            throw PlaylistError(line: 1, tag: nil, reason: "a media playlist is not a multivariant playlist")
        }
        let reader = PlaylistReader(playlist)
        var building = MultivariantPlaylist(
            variants: [], iFrameVariants: [], renditions: [], sessionKeys: [], start: nil,
            hasIndependentSegments: false)
        var pending: (attributes: AttributeList, index: Int)?
        for (index, line) in playlist.lines.enumerated() {
            switch line {
            case .tag(let tag):
                switch tag.name {
                case "EXT-X-STREAM-INF": pending = (try reader.attributes(of: tag, index), index)
                case "EXT-X-I-FRAME-STREAM-INF":
                    let list = try reader.attributes(of: tag, index)
                    guard let uri = list["URI"] else { throw reader.error(index, tag.name, "URI is missing") }
                    building.iFrameVariants.append(try Self.variant(list, uri: reader.substituted(uri), index, tag.name, reader))
                case "EXT-X-MEDIA":
                    if let rendition = try Self.rendition(reader.attributes(of: tag, index), index, reader) {
                        building.renditions.append(rendition)
                    }
                case "EXT-X-SESSION-KEY":
                    if let key = try reader.key(reader.attributes(of: tag, index), index, tag.name) { building.sessionKeys.append(key) }
                case "EXT-X-START": if let list = tag.attributes { building.start = try reader.start(list, index) }
                case "EXT-X-INDEPENDENT-SEGMENTS": building.hasIndependentSegments = true
                default: continue
                }
            case .uri(let uri):
                guard let (attributes, at) = pending else { continue }
                building.variants.append(try Self.variant(attributes, uri: reader.substituted(uri), at, "EXT-X-STREAM-INF", reader))
                pending = nil
            case .comment, .blank:
                continue
            }
        }
        self = building
    }

    private static func variant(
        _ list: AttributeList, uri: String, _ index: Int, _ tag: String,
        _ reader: PlaylistReader
    ) throws(PlaylistError) -> Variant {
        Variant(
            uri: uri, bandwidth: try reader.integer(list["BANDWIDTH"], index, tag, "BANDWIDTH"),
            averageBandwidth: try list["AVERAGE-BANDWIDTH"].map { text throws(PlaylistError) in
                try reader.integer(text, index, tag, "AVERAGE-BANDWIDTH")
            },
            codecs: list["CODECS"], resolution: list["RESOLUTION"],
            frameRate: try list["FRAME-RATE"].map { text throws(PlaylistError) in try reader.decimal(text, index, tag, "FRAME-RATE") },
            audio: list["AUDIO"], video: list["VIDEO"], subtitles: list["SUBTITLES"], closedCaptions: list["CLOSED-CAPTIONS"])
    }

    private static func rendition(_ list: AttributeList, _ index: Int, _ reader: PlaylistReader) throws(PlaylistError) -> Rendition? {
        guard let type = list["TYPE"].flatMap(Rendition.MediaType.init(rawValue:)) else { return nil }
        guard let group = list["GROUP-ID"] else { throw reader.error(index, "EXT-X-MEDIA", "GROUP-ID is missing") }
        guard let name = list["NAME"] else { throw reader.error(index, "EXT-X-MEDIA", "NAME is missing") }
        return Rendition(
            type: type, groupID: group, name: name, language: list["LANGUAGE"], uri: list["URI"].map(reader.substituted),
            isDefault: list["DEFAULT"] == "YES", isAutoselect: list["AUTOSELECT"] == "YES",
            isForced: list["FORCED"] == "YES", channels: list["CHANNELS"])
    }
}

/// An HLS playlist as its lines, in order: multivariant and media playlists alike. Tags the
/// parser knows have typed values; unknown tags, attributes and comments are kept as they were,
/// in place, so that a playlist written back loses nothing a player might need.
///
/// ```swift
/// var playlist = try Playlist(parsing: text)
/// for case .tag(let tag) in playlist.lines where tag.name == "EXT-X-STREAM-INF" {
///     print(tag.attributes?["BANDWIDTH"] ?? "")
/// }
/// let written = playlist.text        // parse → write → parse gives the same playlist
/// ```
public struct Playlist: Hashable, Sendable {
    /// One line of a playlist.
    public enum Line: Hashable, Sendable {
        /// A tag: a line starting with `#EXT`.
        case tag(Tag)
        /// A URI line: a media segment, or the variant after `EXT-X-STREAM-INF`.
        case uri(String)
        /// A comment: a line starting with `#` that is not a tag, without its `#`.
        case comment(String)
        /// An empty line.
        case blank
    }

    /// The lines after `#EXTM3U`, in order.
    public var lines: [Line]

    /// A playlist of `lines` (after `#EXTM3U`).
    public init(lines: [Line]) {
        self.lines = lines
    }

    /// Whether the playlist lists variants (`EXT-X-STREAM-INF`), not segments.
    public var isMultivariant: Bool {
        lines.contains { line in
            if case .tag(let tag) = line { return tag.name == "EXT-X-STREAM-INF" }
            return false
        }
    }

    /// The tags named `name`, in order.
    public func tags(named name: String) -> [Tag] {
        lines.compactMap { line in
            guard case .tag(let tag) = line, tag.name == name else { return nil }
            return tag
        }
    }
}

/// A tag line: its name (without `#`) and its value.
public struct Tag: Hashable, Sendable {
    /// A tag's value.
    public enum Value: Hashable, Sendable {
        /// No value, as `#EXT-X-ENDLIST`.
        case none
        /// An attribute list, as `#EXT-X-KEY:METHOD=AES-128,URI="k"`.
        case attributes(AttributeList)
        /// Any other value, as `#EXTINF:4.0,title` or an unknown tag's value, verbatim.
        case text(String)
    }

    /// The name, such as `EXT-X-KEY`.
    public var name: String
    /// The value.
    public var value: Value

    /// A tag named `name` with `value`.
    public init(_ name: String, _ value: Value = .none) {
        self.name = name
        self.value = value
    }

    /// The attribute list, when the value is one.
    public var attributes: AttributeList? {
        get {
            guard case .attributes(let list) = value else { return nil }
            return list
        }
        set {
            if let newValue { value = .attributes(newValue) }
        }
    }
}

extension Playlist {
    /// The playlist as written: `#EXTM3U`, then each line, each ended by LF.
    public var text: String {
        (["#EXTM3U"] + lines.map(\.text)).joined(separator: "\n") + "\n"
    }
}

extension Playlist.Line {
    /// The line as written.
    public var text: String {
        switch self {
        case .tag(let tag): tag.text
        case .uri(let uri): uri
        case .comment(let comment): "#" + comment
        case .blank: ""
        }
    }
}

extension Tag {
    /// The tag as written, such as `#EXT-X-KEY:METHOD=AES-128,URI="k"`.
    public var text: String {
        switch value {
        case .none: "#" + name
        case .attributes(let list): "#\(name):\(list.text)"
        case .text(let value): "#\(name):\(value)"
        }
    }
}

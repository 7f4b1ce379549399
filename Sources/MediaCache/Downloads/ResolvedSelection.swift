import Foundation

/// A ``DownloadSelection`` resolved against a multivariant playlist: the media playlists to
/// download, each with what it is.
public struct ResolvedSelection: Hashable, Sendable, Codable {
    /// One media playlist to download.
    public struct Playlist: Hashable, Sendable, Codable {
        /// Its URL, resolved.
        public var url: URL
        /// What it plays.
        public var kind: AssetPlaylistKind
        /// Its name: the variant's resolution and bit rate, or the rendition's name.
        public var name: String
        /// A rendition's language.
        public var language: String?
        /// A variant's `BANDWIDTH`.
        public var bandwidth: Int?
        /// A variant's `RESOLUTION`.
        public var resolution: String?

        public init(
            url: URL, kind: AssetPlaylistKind, name: String, language: String? = nil, bandwidth: Int? = nil,
            resolution: String? = nil
        ) {
            self.url = url
            self.kind = kind
            self.name = name
            self.language = language
            self.bandwidth = bandwidth
            self.resolution = resolution
        }
    }

    /// The variant first, then audio, then subtitles.
    public var playlists: [Playlist]

    public init(playlists: [Playlist]) {
        self.playlists = playlists
    }

    /// The chosen variant.
    public var variant: Playlist? { playlists.first { $0.kind == .variant || $0.kind == .media } }

    /// Every playlist of `self` and of `other`, each once, in order.
    public func merged(with other: ResolvedSelection) -> ResolvedSelection {
        var seen = Set(playlists.map(\.url))
        return ResolvedSelection(playlists: playlists + other.playlists.filter { seen.insert($0.url).inserted })
    }
}

import Foundation
import MediaCache

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
    }

    /// The variant first, then audio, then subtitles.
    public var playlists: [Playlist]

    /// The chosen variant.
    public var variant: Playlist? { playlists.first { $0.kind == .variant || $0.kind == .media } }

    /// Every playlist of `self` and of `other`, each once, in order.
    public func merged(with other: ResolvedSelection) -> ResolvedSelection {
        var seen = Set(playlists.map(\.url))
        return ResolvedSelection(playlists: playlists + other.playlists.filter { seen.insert($0.url).inserted })
    }
}

extension DownloadSelection {
    /// The playlists this selection chooses in `multivariant`, whose URIs resolve against `base`.
    ///
    /// - Throws: ``PlaylistError`` when the playlist lists no variant.
    public func resolve(in multivariant: MultivariantPlaylist, base: URL) throws(PlaylistError) -> ResolvedSelection {
        guard let chosen = choose(variant, among: multivariant.variants) else {
            throw PlaylistError(line: 1, tag: nil, reason: "the multivariant playlist lists no variant")
        }
        let resolver = URIResolver(base: base)
        var playlists: [ResolvedSelection.Playlist] = []
        if let url = resolver.resolve(chosen.uri) {
            playlists.append(.init(url: url, kind: .variant, name: chosen.displayName, bandwidth: chosen.bandwidth,
                                   resolution: chosen.resolution))
        }
        let audio = multivariant.renditions(ofGroup: chosen.audio).filter { $0.type == .audio && $0.uri != nil }
        let subtitles = multivariant.renditions(ofGroup: chosen.subtitles).filter { $0.type == .subtitles && $0.uri != nil }
        for rendition in Self.pick(self.audio, among: audio, firstByDefault: true)
            + Self.pick(self.subtitles, among: subtitles, firstByDefault: false) {
            guard let kind = rendition.assetKind, let url = rendition.uri.flatMap(resolver.resolve) else { continue }
            playlists.append(.init(url: url, kind: kind, name: rendition.name, language: rendition.language))
        }
        return ResolvedSelection(playlists: playlists)
    }

    /// A media playlist downloaded alone: that playlist.
    static func alone(_ url: URL) -> ResolvedSelection {
        ResolvedSelection(playlists: [.init(url: url, kind: .media, name: url.lastPathComponent)])
    }

    private func choose(_ variant: Variant, among variants: [MediaCacheHLS.Variant]) -> MediaCacheHLS.Variant? {
        let byBandwidth = variants.sorted { $0.bandwidth < $1.bandwidth }
        switch variant {
        case .highest:
            return byBandwidth.last
        case .lowest:
            return byBandwidth.first
        case .maximumBandwidth(let maximum):
            return byBandwidth.last { $0.bandwidth <= maximum } ?? byBandwidth.first
        case .maximumResolution(let width, let height):
            let fitting = byBandwidth.filter { variant in
                guard let size = variant.pixelSize else { return false }
                return size.width <= width && size.height <= height
            }
            return fitting.last ?? byBandwidth.first
        }
    }

    private static func pick(_ choice: Renditions, among renditions: [Rendition], firstByDefault: Bool) -> [Rendition] {
        switch choice {
        case .none:
            return []
        case .all:
            return renditions
        case .default:
            if let marked = renditions.first(where: \.isDefault) { return [marked] }
            return firstByDefault ? Array(renditions.prefix(1)) : []
        case .languages(let languages):
            let wanted = Set(languages.map { $0.lowercased() })
            return renditions.filter { $0.language.map { wanted.contains($0.lowercased()) } ?? false }
        }
    }
}

extension Variant {
    /// `RESOLUTION` as numbers.
    var pixelSize: (width: Int, height: Int)? {
        let parts = resolution?.lowercased().split(separator: "x").compactMap { Int($0) } ?? []
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
}

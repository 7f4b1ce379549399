import Foundation
import MediaCache

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

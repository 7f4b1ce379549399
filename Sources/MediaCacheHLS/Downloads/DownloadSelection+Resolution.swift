import Foundation
import MediaCache

extension DownloadSelection {
    /// The playlists this selection chooses in `multivariant`, whose URIs resolve against `base`.
    ///
    /// - Throws: ``PlaylistError`` when the playlist lists no variant; `DownloadSelectionError`
    ///   when no variant fits the one asked for (a bandwidth or a resolution below every
    ///   variant's) or a language asked for has no rendition in the chosen variant's group.
    public func resolve(in multivariant: MultivariantPlaylist, base: URL) throws -> ResolvedSelection {
        guard !multivariant.variants.isEmpty else {
            throw PlaylistError(line: 1, tag: nil, reason: "the multivariant playlist lists no variant")
        }
        guard let chosen = choose(variant, among: multivariant.variants) else {
            let variants = multivariant.variants.sorted { $0.bandwidth < $1.bandwidth }
                .map { ($0.resolution.map { "\($0) at " } ?? "") + "\($0.bandwidth) bit/s" }
            throw DownloadSelectionError(
                wanted: "variant within \(variant)" + (variant.isBandwidth ? " bit/s" : ""),
                available: variants)
        }
        let resolver = URIResolver(base: base)
        var playlists: [ResolvedSelection.Playlist] = []
        if let url = resolver.resolve(chosen.uri) {
            playlists.append(
                .init(
                    url: url, kind: .variant, name: chosen.displayName, bandwidth: chosen.bandwidth,
                    resolution: chosen.resolution))
        }
        let audio = multivariant.renditions(ofGroup: chosen.audio).filter { $0.type == .audio && $0.uri != nil }
        let subtitles = multivariant.renditions(ofGroup: chosen.subtitles).filter { $0.type == .subtitles && $0.uri != nil }
        for rendition in try Self.pick(self.audio, among: audio, firstByDefault: true, kind: "audio")
            + Self.pick(self.subtitles, among: subtitles, firstByDefault: false, kind: "subtitles")
        {
            guard let kind = rendition.assetKind, let url = rendition.uri.flatMap(resolver.resolve) else { continue }
            playlists.append(.init(url: url, kind: kind, name: rendition.name, language: rendition.language))
        }
        return ResolvedSelection(playlists: playlists)
    }

    /// A media playlist or a file downloaded alone: that resource.
    ///
    /// - Throws: ``DownloadSelectionError`` when the selection asks for languages, which only
    ///   a multivariant playlist's renditions have.
    static func alone(_ url: URL, selection: DownloadSelection) throws(DownloadSelectionError) -> ResolvedSelection {
        try selection.checkAlone()
        return ResolvedSelection(playlists: [.init(url: url, kind: .media, name: url.lastPathComponent)])
    }

    private func choose(_ variant: Variant, among variants: [MediaCacheHLS.Variant]) -> MediaCacheHLS.Variant? {
        let byBandwidth = variants.sorted { $0.bandwidth < $1.bandwidth }
        switch variant {
        case .highest:
            return byBandwidth.last
        case .lowest:
            return byBandwidth.first
        case .maximumBandwidth(let maximum):
            return byBandwidth.last { $0.bandwidth <= maximum }
        case .maximumResolution(let width, let height):
            let fitting = byBandwidth.filter { variant in
                guard let size = variant.pixelSize else { return false }
                return size.width <= width && size.height <= height
            }
            return fitting.last
        }
    }

    private static func pick(
        _ choice: Renditions, among renditions: [Rendition], firstByDefault: Bool,
        kind: String
    ) throws(DownloadSelectionError) -> [Rendition] {
        switch choice {
        case .none:
            return []
        case .all:
            return renditions
        case .default:
            if let marked = renditions.first(where: \.isDefault) { return [marked] }
            return firstByDefault ? Array(renditions.prefix(1)) : []
        case .languages(let languages):
            let had = Set(renditions.compactMap { $0.language?.lowercased() })
            if let missing = languages.first(where: { !had.contains($0.lowercased()) }) {
                throw DownloadSelectionError(
                    wanted: "\(kind) in \(missing)",
                    available: renditions.map { $0.language ?? "\"\($0.name)\" (no language)" }.uniqued())
            }
            let wanted = Set(languages.map { $0.lowercased() })
            return renditions.filter { $0.language.map { wanted.contains($0.lowercased()) } ?? false }
        }
    }
}

extension DownloadSelection.Variant {
    /// Whether it asks for a bandwidth, in bits per second.
    var isBandwidth: Bool {
        if case .maximumBandwidth = self { return true }
        return false
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Variant {
    /// `RESOLUTION` as numbers.
    var pixelSize: (width: Int, height: Int)? {
        let parts = resolution?.lowercased().split(separator: "x").compactMap { Int($0) } ?? []
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
}

import Foundation
import MediaCache

extension MultivariantPlaylist {
    /// The media playlists it lists, resolved against `base` (the URL it was answered from),
    /// as an asset records them: variants, I-frame variants, then renditions with a URI.
    ///
    /// ```swift
    /// try store.recordAsset(url, playlists: multivariant.assetPlaylists(base: url))
    /// ```
    public func assetPlaylists(base: URL) -> [AssetPlaylist] {
        let resolver = URIResolver(base: base)
        let variantPlaylists = variants.compactMap { variant in
            resolver.resolve(variant.uri).map { AssetPlaylist(url: $0, kind: .variant, name: variant.displayName) }
        }
        let iFramePlaylists = iFrameVariants.compactMap { variant in
            resolver.resolve(variant.uri).map { AssetPlaylist(url: $0, kind: .iFrame, name: variant.displayName) }
        }
        let renditionPlaylists = renditions.compactMap { rendition -> AssetPlaylist? in
            guard let kind = rendition.assetKind, let url = rendition.uri.flatMap(resolver.resolve) else { return nil }
            return AssetPlaylist(url: url, kind: kind, name: rendition.displayName)
        }
        return variantPlaylists + iFramePlaylists + renditionPlaylists
    }
}

extension MediaPlaylist {
    /// The resources it names, resolved against `base`, as an asset records them: each
    /// segment (with its duration and byte range), and each key and init section once.
    ///
    /// ```swift
    /// try store.recordPlaylist(url, generation: record.generation, members: media.assetMembers(base: url))
    /// ```
    public func assetMembers(base: URL) -> [AssetMember] {
        let resolver = URIResolver(base: base)
        var members: [AssetMember] = []
        var named = Set<AssetMember>()
        func add(_ member: AssetMember) {
            if named.insert(member).inserted { members.append(member) }
        }
        for segment in segments where !segment.isGap {
            for key in segment.keys {
                if let url = key.uri.flatMap(resolver.resolve) { add(AssetMember(url: url, role: .key)) }
            }
            if let section = segment.initSection, let url = resolver.resolve(section.uri) {
                add(AssetMember(url: url, role: .initSection, byteRange: section.byteRange))
            }
            if let url = resolver.resolve(segment.uri) {
                members.append(AssetMember(url: url, role: .segment, duration: segment.duration, byteRange: segment.byteRange))
            }
        }
        return members
    }
}

extension Variant {
    /// `1280x720 2.5 Mbit/s`, or the bandwidth alone.
    var displayName: String {
        let rate = String(format: "%.1f Mbit/s", Double(bandwidth) / 1_000_000)
        return resolution.map { "\($0) \(rate)" } ?? rate
    }
}

extension Rendition {
    /// `English (en)`, or the name alone.
    var displayName: String {
        language.map { "\(name) (\($0))" } ?? name
    }

    /// The playlist kind of a rendition with its own playlist; closed captions have none.
    var assetKind: AssetPlaylistKind? {
        switch type {
        case .audio: .audio
        case .video: .video
        case .subtitles: .subtitles
        case .closedCaptions: nil
        }
    }
}

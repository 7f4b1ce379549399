import Foundation
import MediaCache

/// What a player starts an HLS presentation with: the variant (the first listed, or the best
/// one within a bandwidth), and that variant's default audio and subtitle renditions.
struct HLSStart: Equatable {
    var variant: Variant
    var audio: Rendition?
    var subtitles: Rendition?

    init?(_ multivariant: MultivariantPlaylist, maximumBandwidth: Int?) {
        let chosen: Variant?
        if let maximumBandwidth {
            chosen =
                multivariant.variants.filter { $0.bandwidth <= maximumBandwidth }.max { $0.bandwidth < $1.bandwidth }
                ?? multivariant.variants.min { $0.bandwidth < $1.bandwidth }
        } else {
            chosen = multivariant.variants.first
        }
        guard let chosen else { return nil }
        variant = chosen
        let audioGroup = multivariant.renditions(ofGroup: chosen.audio).filter { $0.type == .audio && $0.uri != nil }
        audio = audioGroup.first(where: \.isDefault) ?? audioGroup.first
        subtitles = multivariant.renditions(ofGroup: chosen.subtitles).first { $0.type == .subtitles && $0.isDefault && $0.uri != nil }
    }

    /// The media playlists to preload segments of, resolved against `base`, with their names.
    func playlists(base: URL) -> [(url: URL, name: String)] {
        let resolver = URIResolver(base: base)
        var playlists: [(URL, String)] = []
        if let url = resolver.resolve(variant.uri) { playlists.append((url, variant.displayName)) }
        for rendition in [audio, subtitles].compactMap({ $0 }) {
            if let url = rendition.uri.flatMap(resolver.resolve) { playlists.append((url, rendition.displayName)) }
        }
        return playlists
    }
}

extension MediaPlaylist {
    /// What a player needs to play the first `seconds` (from where it starts: the first
    /// segment of a finished playlist, three segments from the end of a live one): those
    /// segments, their keys and init sections, resolved against `base`; byte ranges of one
    /// file merged into one target.
    func preloadTargets(forFirst seconds: Double, base: URL) -> [PreloadTarget] {
        let resolver = URIResolver(base: base)
        let playable = segments.filter { !$0.isGap }
        let start = isFinished ? 0 : max(0, playable.count - 3)
        var targets: [PreloadTarget] = []
        var positions: [URL: Int] = [:]
        func add(_ url: URL?, _ range: ByteRange?) {
            guard let url else { return }
            guard let position = positions[url] else {
                positions[url] = targets.count
                targets.append(PreloadTarget(url: url, ranges: range.map { [$0] }))
                return
            }
            guard let range, targets[position].ranges != nil else {
                targets[position].ranges = nil
                return
            }
            targets[position].ranges?.insert(range)
        }
        var covered = 0.0
        for segment in playable[start...] where covered < seconds {
            for key in segment.keys { add(key.uri.flatMap(resolver.resolve), nil) }
            if let section = segment.initSection { add(resolver.resolve(section.uri), section.byteRange) }
            add(resolver.resolve(segment.uri), segment.byteRange)
            covered += segment.duration
        }
        return targets
    }
}

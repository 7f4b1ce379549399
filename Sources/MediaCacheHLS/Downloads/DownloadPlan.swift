import Foundation
import MediaCache

/// Everything one download fetches: its playlists, then each unit (a key, an init section, a
/// segment, or byte ranges of one file merged) with the seconds it adds.
struct DownloadPlan: Sendable {
    /// One resource to have stored, in part or whole.
    struct Unit: Sendable {
        var target: PreloadTarget
        /// Seconds of the first selected playlist it completes.
        var seconds: Double
        /// Whether it is a segment (or merged byte ranges of segments).
        var isSegment: Bool
    }

    /// The playlists read to plan, stored already.
    var playlists: [URL]
    var units: [Unit]
    /// Seconds of the first selected playlist.
    var duration: Double
    /// `BANDWIDTH` × duration of the variant, where the playlist names one.
    var estimatedBytes: Int64?

    var segmentCount: Int { units.filter(\.isSegment).count }

    /// The plan for `media`, one playlist of the selection, resolved against `base`.
    static func units(of media: MediaPlaylist, base: URL, counted: Bool) -> [Unit] {
        let resolver = URIResolver(base: base)
        var units: [Unit] = []
        var positions: [URL: Int] = [:]
        func add(_ url: URL?, _ range: ByteRange?, seconds: Double, isSegment: Bool) {
            guard let url else { return }
            if let position = positions[url] {
                if let range, units[position].target.ranges != nil {
                    units[position].target.ranges?.insert(range)
                } else {
                    units[position].target.ranges = nil
                }
                units[position].seconds += seconds
                return
            }
            positions[url] = units.count
            units.append(Unit(target: PreloadTarget(url: url, ranges: range.map { [$0] }), seconds: seconds, isSegment: isSegment))
        }
        for segment in media.segments where !segment.isGap {
            for key in segment.keys { add(key.uri.flatMap(resolver.resolve), nil, seconds: 0, isSegment: false) }
            if let section = segment.initSection { add(resolver.resolve(section.uri), section.byteRange, seconds: 0, isSegment: false) }
            add(resolver.resolve(segment.uri), segment.byteRange, seconds: counted ? segment.duration : 0, isSegment: true)
        }
        return units
    }
}

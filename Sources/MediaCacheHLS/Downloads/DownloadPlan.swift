import Foundation
import MediaCache

/// Everything one download fetches: its playlists, then each unit (a key, an init section, a
/// segment, or byte ranges of one file merged) with the time ranges of each playlist it
/// completes.
struct DownloadPlan: Sendable {
    /// Seconds of one selected playlist that a unit completes.
    struct Span: Sendable {
        var playlist: URL
        var time: Range<Double>
    }

    /// One resource to have stored, in part or whole.
    struct Unit: Sendable {
        var target: PreloadTarget
        /// What it completes of the selected playlists.
        var spans: [Span]
        /// Whether it is a segment (or merged byte ranges of segments).
        var isSegment: Bool
    }

    /// The playlists read to plan, stored already.
    var playlists: [URL]
    var units: [Unit]
    /// Seconds of the first selected playlist.
    var duration: Double
    /// Each selected playlist's progress, with nothing loaded yet.
    var renditions: [RenditionProgress] = []
    /// For an MP4 or MP3 file, its time index: the seconds stored are those that play.
    var timeIndex: (any MediaTimeIndex)?
    /// `BANDWIDTH` × duration of the variant, where the playlist names one.
    var estimatedBytes: Int64?

    var segmentCount: Int { units.filter(\.isSegment).count }

    /// The units of `media`, the selected playlist at `playlist`, resolved against `base`.
    static func units(of media: MediaPlaylist, playlist: URL, base: URL) -> [Unit] {
        let resolver = URIResolver(base: base)
        var units: [Unit] = []
        var positions: [URL: Int] = [:]
        func add(_ url: URL?, _ range: ByteRange?, span: Span?, isSegment: Bool) {
            guard let url else { return }
            if let position = positions[url] {
                if let range, units[position].target.ranges != nil {
                    units[position].target.ranges?.insert(range)
                } else {
                    units[position].target.ranges = nil
                }
                if let span { units[position].spans.append(span) }
                return
            }
            positions[url] = units.count
            units.append(Unit(target: PreloadTarget(url: url, ranges: range.map { [$0] }), spans: span.map { [$0] } ?? [],
                              isSegment: isSegment))
        }
        for segment in media.segments where !segment.isGap {
            for key in segment.keys { add(key.uri.flatMap(resolver.resolve), nil, span: nil, isSegment: false) }
            if let section = segment.initSection { add(resolver.resolve(section.uri), section.byteRange, span: nil, isSegment: false) }
            let time = segment.startTime..<(segment.startTime + segment.duration)
            add(resolver.resolve(segment.uri), segment.byteRange, span: Span(playlist: playlist, time: time), isSegment: true)
        }
        return units
    }
}

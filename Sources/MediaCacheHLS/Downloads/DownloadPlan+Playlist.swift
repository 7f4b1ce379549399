import Foundation
import MediaCache

extension DownloadPlan {
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
            units.append(
                Unit(
                    target: PreloadTarget(url: url, ranges: range.map { [$0] }), spans: span.map { [$0] } ?? [],
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

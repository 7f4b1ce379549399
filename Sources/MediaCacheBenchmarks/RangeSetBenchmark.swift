import Foundation
import MediaCache

/// ByteRangeSet with 100,000 spans against the standard library's array-backed `RangeSet`.
struct RangeSetBenchmark {
    let spanCount = 100_000

    func run() {
        guard #available(macOS 15, iOS 18, tvOS 18, visionOS 2, *) else {
            print("The standard library RangeSet reference needs macOS 15 or later.")
            return
        }
        var generator = SystemRandomNumberGenerator()
        let spans = (0..<Int64(spanCount)).map { ByteRange($0 * 16, $0 * 16 + 8) }.shuffled(using: &generator)
        let probes = (0..<spanCount).map { _ in Int64.random(in: 0..<Int64(spanCount * 16), using: &generator) }
        let cuts = (0..<spanCount).map { _ in ByteRange(offset: Int64.random(in: 0..<Int64(spanCount * 16), using: &generator), length: 4) }

        var ours = ByteRangeSet()
        var reference = RangeSet<Int64>()
        let oursInsert = Measure.median(runs: 3) {
            ours = ByteRangeSet()
            for span in spans { ours.insert(span) }
        }
        let referenceInsert = Measure.median(runs: 3) {
            reference = RangeSet<Int64>()
            for span in spans { reference.insert(contentsOf: span.lowerBound..<span.upperBound) }
        }
        var oursHits = 0
        var referenceHits = 0
        let oursContains = Measure.median(runs: 3) { oursHits = probes.filter { ours.contains($0) }.count }
        let referenceContains = Measure.median(runs: 3) { referenceHits = probes.filter { reference.contains($0) }.count }
        precondition(ours.rangeCount == reference.ranges.count && oursHits == referenceHits, "the two sets disagree")

        let window = ByteRange(0, Int64(spanCount * 16))
        let oursGaps = Measure.median(runs: 3) { _ = ours.gaps(in: window) }
        let referenceGaps = Measure.median(runs: 3) {
            var gaps = RangeSet<Int64>(window.lowerBound..<window.upperBound)
            gaps.subtract(reference)
            _ = gaps.ranges.count
        }
        let oursRemove = Measure.median(runs: 3) {
            var copy = ours
            for cut in cuts { copy.remove(cut) }
        }
        let referenceRemove = Measure.median(runs: 3) {
            var copy = reference
            for cut in cuts { copy.remove(contentsOf: cut.lowerBound..<cut.upperBound) }
        }

        Measure.header(
            "ByteRangeSet with \(spanCount) spans (median of 3)", ours: "ByteRangeSet",
            reference: "stdlib RangeSet", ratioMeaning: "reference time / ours, higher is better")
        report("insert \(spanCount) spans in random order", ours: oursInsert, reference: referenceInsert)
        report("\(spanCount) random `contains` lookups", ours: oursContains, reference: referenceContains)
        report("gaps across all spans", ours: oursGaps, reference: referenceGaps)
        report("remove \(spanCount) random 4-byte ranges", ours: oursRemove, reference: referenceRemove)
    }

    private func report(_ name: String, ours: Duration, reference: Duration) {
        Measure.row(
            name, ours: format(ours), reference: format(reference),
            ratio: reference.timeInterval / ours.timeInterval)
    }

    private func format(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.timeInterval * 1000)
    }
}

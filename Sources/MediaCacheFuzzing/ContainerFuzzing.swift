import Foundation
import MediaCache

/// The container laws: any bytes are indexed without trapping, or refused with a
/// ``ContainerError``; an index has a finite, non-negative duration (when it has one) and
/// maps any playing time to byte ranges inside the file.
///
/// Input: the file's bytes.
enum ContainerFuzzing {
    /// Playing times asked of every index, in seconds: the start, a feed preload, beyond any
    /// file's end.
    static let times: [Double] = [0, 0.04, 1, 5, 3_600, 1e12]

    static func checkMP4(_ data: Data) async -> FuzzFailure? {
        guard let index = try? await MP4Index.load(from: DataByteSource(data)) else { return nil }
        return check(index, length: Int64(data.count))
    }

    static func checkMP3(_ data: Data) async -> FuzzFailure? {
        guard let index = try? await MP3Index.load(from: DataByteSource(data)) else { return nil }
        return check(index, length: Int64(data.count))
    }

    private static func check(_ index: some MediaTimeIndex, length: Int64) -> FuzzFailure? {
        if let duration = index.duration, !(duration.isFinite && duration >= 0) {
            return FuzzFailure("\(index.format) duration \(duration)")
        }
        for seconds in times {
            let ranges = index.byteRanges(forFirst: seconds)
            if let outside = ranges.ranges.first(where: { $0.lowerBound < 0 || $0.upperBound > length }) {
                return FuzzFailure("\(index.format): the first \(seconds) s need \(outside), outside the file of \(length) bytes")
            }
        }
        return nil
    }
}

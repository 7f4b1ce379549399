import Foundation
@testable import MediaCache
import MediaCacheTesting
import Testing

/// The MP4 and MP3 time indexes on files ffmpeg generates: the ranges they give for the first
/// seconds are few, and enough — ffmpeg decodes those seconds from a copy in which every other
/// byte is zeroed exactly as from the file.
@Suite(.timeLimit(.minutes(3))) struct ContainerIndexTests {
    static let media: [TestMedia] = [
        .faststartMP4(seconds: 20), .moovAtEndMP4(seconds: 20), .constantBitrateMP3(seconds: 20),
        .constantBitrateMP3(seconds: 20, tagged: false), .variableBitrateMP3(seconds: 20),
    ]

    @Test(arguments: media.indices)
    func theFirstSecondsDecodeFromTheirRangesAlone(_ index: Int) async throws {
        let media = Self.media[index]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = try await media.make(in: directory.path)
        let format = try #require(ContainerFormat(mimeType: media.mimeType, url: URL(fileURLWithPath: media.name)))
        let index = try await format.load(from: DataByteSource(data))
        let duration = try #require(index.duration)
        #expect(abs(duration - 20) < 0.5, "\(media.name) lasts \(duration) s")

        let ranges = index.byteRanges(forFirst: 4)
        #expect(ranges.bounds.map { $0.upperBound <= Int64(data.count) } == true)
        #expect(ranges.contains(ByteRange(0, 8)))
        #expect(
            Double(ranges.coveredLength) < 0.35 * Double(data.count),
            "\(media.name): \(ranges.coveredLength) of \(data.count) bytes for 4 s of 20")
        let later = index.byteRanges(forFirst: 8)
        #expect(ranges.ranges.allSatisfy { later.contains($0) }, "more seconds never need fewer bytes")

        let sparse = directory.appending("sparse-" + media.name)
        try Self.keeping(ranges, of: data).write(to: URL(fileURLWithPath: sparse))
        let original = try await Self.decodedHash(directory.appending(media.name), seconds: 3)
        let fromRanges = try await Self.decodedHash(sparse, seconds: 3)
        #expect(fromRanges == original, "\(media.name): the first 3 s decode from the ranges for 4 s")
    }

    @Test func anMP4SaysWhereMoovIs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for media in [TestMedia.faststartMP4(seconds: 4), .moovAtEndMP4(seconds: 4)] {
            let data = try await media.make(in: directory.path)
            let index = try await MP4Index.load(from: DataByteSource(data))
            let types = index.boxes.map(\.type)
            #expect(types.first == "ftyp")
            #expect(types.contains("moov") && types.contains("mdat"))
            let moov = try #require(index.boxes.first { $0.type == "moov" })
            let mdat = try #require(index.boxes.first { $0.type == "mdat" })
            #expect((moov.range.lowerBound < mdat.range.lowerBound) == (media.name == "faststart.mp4"))
            #expect(index.tracks.count == 2)
            #expect(index.byteRanges(forFirst: 1).contains(moov.range))
        }
    }

    /// `data` with every byte outside `ranges` set to zero.
    static func keeping(_ ranges: ByteRangeSet, of data: Data) -> Data {
        var sparse = Data(count: data.count)
        for range in ranges.ranges {
            let bounds = Int(range.lowerBound)..<Int(range.upperBound)
            sparse.replaceSubrange(bounds, with: data[bounds])
        }
        return sparse
    }

    /// The MD5 of what ffmpeg decodes from the first `seconds` of `path`.
    static func decodedHash(_ path: String, seconds: Int) async throws -> String {
        let ffmpeg = try Tools.require("ffmpeg")
        let run = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-t", "\(seconds)", "-i", path, "-f", "md5", "-"])
        try #require(run.status == 0 && run.errorOutput.isEmpty, "ffmpeg on \(path): \(run.errorOutput)")
        return run.output
    }
}

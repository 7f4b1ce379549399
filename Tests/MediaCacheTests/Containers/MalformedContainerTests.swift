import Foundation
@testable import MediaCache
import MediaCacheTesting
import Testing

/// Truncated, corrupted and hand-made hostile files give a ``ContainerError`` or a sane index;
/// they never crash the parser nor yield ranges outside the file.
@Suite(.timeLimit(.minutes(3))) struct MalformedContainerTests {
    @Test func truncatedMP4sFailPrecisely() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for media in [TestMedia.faststartMP4(seconds: 6), .moovAtEndMP4(seconds: 6)] {
            let data = try await media.make(in: directory.path)
            for cut in [0, 3, 8, 20, 100, data.count / 3, data.count / 2, data.count - 1] {
                await #expect(throws: ContainerError.self, "\(media.name) cut at \(cut)") {
                    _ = try await MP4Index.load(from: DataByteSource(data.prefix(cut)))
                }
            }
        }
    }

    @Test func truncatedMP3sFailOrMapWithinTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for media in [TestMedia.constantBitrateMP3(seconds: 6), .variableBitrateMP3(seconds: 6)] {
            let data = try await media.make(in: directory.path)
            for cut in [0, 3, 10, 40, 300, data.count / 2] {
                let truncated = data.prefix(cut)
                do {
                    let index = try await MP3Index.load(from: DataByteSource(truncated))
                    let bounds = index.byteRanges(forFirst: 4).bounds
                    #expect(bounds.map { $0.upperBound <= Int64(cut) } ?? true, "\(media.name) cut at \(cut)")
                } catch {
                    #expect(cut < 400, "\(media.name) cut at \(cut): \(error)")
                }
            }
        }
    }

    @Test func corruptedFilesNeverCrashTheParsers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var generator = SplitMix64(seed: 42)
        for media in [TestMedia.faststartMP4(seconds: 3), .moovAtEndMP4(seconds: 3), .variableBitrateMP3(seconds: 3)] {
            let data = try await media.make(in: directory.path)
            let format = try #require(ContainerFormat(mimeType: media.mimeType, url: URL(fileURLWithPath: media.name)))
            // Flips bytes in the structures the parsers read: the first and last 4 KiB.
            let hot = Array(0..<min(4096, data.count)) + Array(max(0, data.count - 4096)..<data.count)
            for _ in 0..<300 {
                var corrupted = data
                for _ in 0..<4 {
                    let offset = hot[Int(generator.next() % UInt64(hot.count))]
                    corrupted[offset] = UInt8(truncatingIfNeeded: generator.next())
                }
                guard let index = try? await format.load(from: DataByteSource(corrupted)) else { continue }
                let bounds = index.byteRanges(forFirst: 2).bounds
                #expect(bounds.map { $0.lowerBound >= 0 && $0.upperBound <= Int64(data.count) } ?? true)
            }
        }
    }

    @Test func hostileBoxesAreNamed() async throws {
        let tiny = Self.box("ftyp", Data("isom".utf8)) + Data([0, 0, 0, 4]) + Data("moov".utf8)
        await #expect(throws: ContainerError.malformed("'moov' box at 12 has size 4, smaller than its header")) {
            _ = try await MP4Index.load(from: DataByteSource(tiny))
        }
        let noMoov = Self.box("ftyp", Data("isom".utf8)) + Self.box("mdat", Data(count: 64))
        await #expect(throws: ContainerError.missing("a moov box")) {
            _ = try await MP4Index.load(from: DataByteSource(noMoov))
        }
        let fragmented =
            Self.box("ftyp", Data("iso6".utf8)) + Self.box("moov", Self.box("mvex", Data(count: 8)))
            + Self.box("moof", Data(count: 8)) + Self.box("mdat", Data(count: 8))
        await #expect(throws: ContainerError.unsupported("fragmented MP4 (samples in moof boxes)")) {
            _ = try await MP4Index.load(from: DataByteSource(fragmented))
        }
        // A sample-size table that claims a billion entries in twelve bytes.
        var stsz = Data(count: 8)
        stsz.append(contentsOf: [0x40, 0, 0, 0])
        let stbl = Self.box("stbl", Self.box("stts", Data(count: 8)) + Self.box("stsc", Data(count: 8)) + Self.box("stsz", stsz))
        let mdhd = Self.box("mdhd", Data(count: 12) + Data([0, 0, 0x03, 0xE8]) + Data(count: 8))
        let trak = Self.box("trak", Self.box("mdia", mdhd + Self.box("minf", stbl)))
        let claims = Self.box("ftyp", Data("isom".utf8)) + Self.box("moov", trak) + Self.box("mdat", Data(count: 8))
        await #expect(throws: ContainerError.truncated("stsz needs 4294967296 bytes at 12, has 0")) {
            _ = try await MP4Index.load(from: DataByteSource(claims))
        }
        await #expect(throws: ContainerError.missing("MPEG audio frames within 65536 bytes of 0")) {
            _ = try await MP3Index.load(from: DataByteSource(Data(repeating: 0x55, count: 5000)))
        }
    }

    @Test func aVBRIHeaderMapsTimeThroughItsTable() async throws {
        // MPEG-1 layer III, 128 kbit/s, 44.1 kHz: 417-byte frames of 1152 samples.
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]
        var first = Data(header) + Data(count: 32) + Data("VBRI".utf8)
        first += Data([0, 1, 0, 0, 0, 50])  // version, delay, quality
        first += Data([0, 0, 0x10, 0]) + Data([0, 0, 0, 100])  // bytes, frames
        first += Data([0, 4, 0, 1, 0, 2, 0, 25])  // 4 entries of 2 bytes, scale 1, 25 frames each
        first += Data([0x10, 0, 0x20, 0, 0x30, 0, 0x40, 0])  // 4096, 8192, 12288, 16384 bytes
        first += Data(count: 417 - first.count)
        var file = first
        for _ in 0..<99 { file += Data(header) + Data(count: 413) }
        let index = try await MP3Index.load(from: DataByteSource(file))
        let secondsPerEntry = 25 * 1152 / 44100.0
        #expect(index.duration.map { abs($0 - 100 * 1152 / 44100.0) < 0.001 } == true)
        #expect(index.offset(at: secondsPerEntry) == 4096)
        #expect(index.offset(at: secondsPerEntry * 1.5) == 4096 + 8192)
        #expect(index.byteRanges(forFirst: secondsPerEntry).ranges.first == ByteRange(0, 4096 + 2 * 417))
    }

    @Test func aXingTableThatDecreasesIsMalformed() async throws {
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]
        var first = Data(header) + Data(count: 32) + Data("Xing".utf8) + Data([0, 0, 0, 5]) + Data([0, 0, 0, 100])
        first += Data((0..<100).map { UInt8(99 - $0) })
        first += Data(count: 417 - first.count)
        let file = first + Data(header) + Data(count: 413)
        await #expect(throws: ContainerError.malformed("Xing table of contents decreases")) {
            _ = try await MP3Index.load(from: DataByteSource(file))
        }
    }

    static func box(_ type: String, _ payload: Data) -> Data {
        let size = UInt32(8 + payload.count)
        return Data([UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
            + Data(type.utf8) + payload
    }
}

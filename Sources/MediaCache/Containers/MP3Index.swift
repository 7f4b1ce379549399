import Foundation

/// The time map of an MP3 file: constant bitrate from the first frame's header, or a variable
/// bitrate's seek table from its Xing or VBRI tag.
///
/// ```swift
/// let index = try await MP3Index.load(from: DataByteSource(fileData))
/// let ranges = index.byteRanges(forFirst: 10)   // tags, 10 s of frames, the ID3v1 tail
/// ```
public struct MP3Index: MediaTimeIndex {
    /// How far past the ID3v2 tag a first frame is looked for.
    static let syncSearchLimit = 64 << 10
    /// Bytes at the end of the file that players read for ID3v1 and APE tags.
    static let tailLength: Int64 = 128

    /// How the index maps time to bytes.
    enum TimeMap: Hashable, Sendable {
        /// Bytes per second throughout.
        case constant(bytesPerSecond: Double)
        /// The Xing table: 100 entries, each the position at that percent of the duration, in
        /// 256ths of the audio's bytes.
        case xing(toc: [UInt8], audioBytes: Int64, duration: Double)
        /// The VBRI table: the audio bytes of each successive stretch of `secondsPerEntry`.
        case vbri(entryBytes: [Int64], secondsPerEntry: Double)
    }

    /// Where the first frame starts (after any ID3v2 tag).
    let audioStart: Int64
    let timeMap: TimeMap
    let fileLength: Int64
    /// The playback duration in seconds, from the tag's frame count or, at a constant bitrate,
    /// from the audio's length.
    public let duration: Double?
    /// The first frame's header.
    let firstFrame: MP3FrameHeader

    public var format: String { "mp3" }

    public func byteRanges(forFirst seconds: Double) -> ByteRangeSet {
        // Two frames past the time, so the last frame the player decodes is whole.
        let end = min(audioStart + offset(at: seconds) + Int64(2 * firstFrame.frameLength), fileLength)
        var ranges: ByteRangeSet = [ByteRange(0, end)]
        ranges.insert(ByteRange(max(fileLength - Self.tailLength, 0), fileLength))
        return ranges
    }

    /// The audio bytes before `seconds`.
    func offset(at seconds: Double) -> Int64 {
        switch timeMap {
        case .constant(let bytesPerSecond):
            return min(Int64(saturating: seconds * bytesPerSecond), fileLength)
        case .xing(let toc, let audioBytes, let duration):
            let percent = min(max(seconds / duration * 100, 0), 99.999)
            let index = Int(percent)
            let here = Double(toc[index])
            let next = index + 1 < toc.count ? Double(toc[index + 1]) : 256
            let fraction = (here + (next - here) * (percent - Double(index))) / 256
            return Int64((fraction * Double(audioBytes)).rounded(.up))
        case .vbri(let entryBytes, let secondsPerEntry):
            let entries = min((seconds / secondsPerEntry).rounded(.up), Double(entryBytes.count))
            return entryBytes.prefix(Int(max(entries, 0))).reduce(0, +)
        }
    }

    /// Finds the first frame after any ID3v2 tag and reads its Xing, Info or VBRI tag.
    ///
    /// - Throws: ``ContainerError`` when no two consecutive valid frames are found, or a tag
    ///   is inconsistent.
    public static func load(from source: some MediaByteSource) async throws(ContainerError) -> MP3Index {
        var head = try await source.read(ByteRange(offset: 0, length: 10))
        var audioStart: Int64 = 0
        if head.count == 10, head.starts(with: Array("ID3".utf8)) {
            let size = head[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) }
            audioStart = 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
        }
        head = try await source.read(ByteRange(offset: audioStart, length: Int64(syncSearchLimit)))
        guard let (skip, frame) = firstFrame(in: Array(head)) else {
            throw .missing("MPEG audio frames within \(syncSearchLimit) bytes of \(audioStart)")
        }
        audioStart += Int64(skip)
        let frameBytes = head.subdata(in: head.startIndex + skip..<head.endIndex)
        let audioBytes = source.length - audioStart
        if let index = try xing(
            in: frameBytes, frame: frame, audioStart: audioStart, audioBytes: audioBytes,
            fileLength: source.length)
        {
            return index
        }
        if let index = try vbri(in: frameBytes, frame: frame, audioStart: audioStart, fileLength: source.length) {
            return index
        }
        let bytesPerSecond = Double(frame.bitrate) / 8
        return MP3Index(
            audioStart: audioStart, timeMap: .constant(bytesPerSecond: bytesPerSecond),
            fileLength: source.length, duration: Double(audioBytes) / bytesPerSecond, firstFrame: frame)
    }

    /// The first offset in `bytes` where a valid frame header is followed by another.
    static func firstFrame(in bytes: [UInt8]) -> (Int, MP3FrameHeader)? {
        var offset = 0
        while offset + 4 <= bytes.count {
            if let frame = MP3FrameHeader(bytes[offset..<offset + 4]) {
                let next = offset + frame.frameLength
                if next + 4 > bytes.count || MP3FrameHeader(bytes[next..<next + 4]) != nil { return (offset, frame) }
            }
            offset += 1
        }
        return nil
    }

    private static func xing(
        in frame: Data, frame header: MP3FrameHeader, audioStart: Int64, audioBytes: Int64,
        fileLength: Int64
    ) throws(ContainerError) -> MP3Index? {
        var cursor = BinaryCursor(frame, at: header.xingOffset, context: "Xing tag")
        guard cursor.remaining >= 8, ["Xing", "Info"].contains(try cursor.fourCC()) else { return nil }
        let flags = try cursor.uint32()
        let frames = flags & 1 != 0 ? Int64(try cursor.uint32()) : nil
        let bytes = flags & 2 != 0 ? Int64(try cursor.uint32()) : nil
        let toc = flags & 4 != 0 ? try (0..<100).map { _ throws(ContainerError) in try cursor.uint8() } : nil
        guard let frames, frames > 0 else { return nil }
        let duration = Double(frames) * header.frameDuration
        let total = bytes.map { min($0, audioBytes) } ?? audioBytes
        let timeMap: TimeMap
        if let toc {
            guard zip(toc, toc.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw .malformed("Xing table of contents decreases") }
            timeMap = .xing(toc: toc, audioBytes: total, duration: duration)
        } else {
            timeMap = .constant(bytesPerSecond: Double(total) / duration)
        }
        return MP3Index(
            audioStart: audioStart, timeMap: timeMap, fileLength: fileLength, duration: duration,
            firstFrame: header)
    }

    private static func vbri(
        in frame: Data, frame header: MP3FrameHeader, audioStart: Int64,
        fileLength: Int64
    ) throws(ContainerError) -> MP3Index? {
        var cursor = BinaryCursor(frame, at: 36, context: "VBRI tag")
        guard cursor.remaining >= 26, try cursor.fourCC() == "VBRI" else { return nil }
        try cursor.skip(6)
        _ = try cursor.uint32()
        let frames = Int64(try cursor.uint32())
        let entryCount = Int(try cursor.uint16())
        let scale = Int64(try cursor.uint16())
        let entrySize = Int(try cursor.uint16())
        let framesPerEntry = Int64(try cursor.uint16())
        guard frames > 0, (1...4).contains(entrySize), framesPerEntry > 0 else {
            throw .malformed("VBRI tag with \(frames) frames, \(entrySize)-byte entries, \(framesPerEntry) frames per entry")
        }
        let entries = try (0..<entryCount).map { _ throws(ContainerError) in Int64(try cursor.integer(bytes: entrySize)) * scale }
        return MP3Index(
            audioStart: audioStart,
            timeMap: .vbri(entryBytes: entries, secondsPerEntry: Double(framesPerEntry) * header.frameDuration),
            fileLength: fileLength, duration: Double(frames) * header.frameDuration, firstFrame: header)
    }
}

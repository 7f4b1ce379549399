import Foundation

/// The time map of an MP4/MOV/M4A file: its top-level boxes, wherever `moov` lies, and the
/// sample tables of each track.
///
/// ```swift
/// let index = try await MP4Index.load(from: DataByteSource(fileData))
/// let ranges = index.byteRanges(forFirst: 5)   // ftyp, moov, mdat header, 5 s of every track
/// ```
public struct MP4Index: MediaTimeIndex {
    /// Top-level boxes larger than this are not preloaded whole, unless they are `moov`.
    static let smallBoxLimit: Int64 = 1 << 20
    /// The largest `moov` read: a box claiming more is treated as malformed.
    static let moovLimit: Int64 = 64 << 20
    /// The most top-level boxes scanned before `moov` and `mdat` are found.
    static let boxLimit = 4096
    /// How much is read at once while scanning top-level boxes.
    static let scanWindow: Int64 = 64 << 10

    /// The top-level boxes scanned, in file order, up to the first `moov` and `mdat` both.
    let boxes: [MP4Box]
    /// One sample table per track.
    let tracks: [MP4SampleTable]
    /// The file's length.
    let fileLength: Int64

    public var format: String { "mp4" }

    public var duration: Double? { tracks.map(\.duration).max() }

    public func byteRanges(forFirst seconds: Double) -> ByteRangeSet {
        var ranges = ByteRangeSet()
        for box in boxes {
            let whole = box.type != "mdat" && (box.type == "moov" || box.range.length <= Self.smallBoxLimit)
            ranges.insert(whole ? box.range : ByteRange(offset: box.range.lowerBound, length: min(box.range.length, 16)))
        }
        for track in tracks {
            // The tables were checked against the file when the index was loaded.
            if let samples = try? track.byteRanges(ofFirst: track.sampleCount(before: seconds), fileLength: fileLength) {
                ranges.formUnion(samples)
            }
        }
        return ranges
    }

    /// Scans the top-level boxes of `source` and parses `moov`'s tracks.
    ///
    /// - Throws: ``ContainerError`` when the file is truncated or malformed, has no `moov`, or
    ///   is fragmented (its samples lie in `moof` boxes, which this index does not map).
    public static func load(from source: some MediaByteSource) async throws(ContainerError) -> MP4Index {
        let boxes = try await scan(source)
        guard let moov = boxes.first(where: { $0.type == "moov" }) else { throw .missing("a moov box") }
        guard moov.range.length <= moovLimit else { throw .malformed("moov claims \(moov.range.length) bytes") }
        let payload = try await source.read(moov.payload)
        let children = try MP4Box.children(of: payload, context: "moov")
        if children.contains(where: { $0.box.type == "mvex" }) || boxes.contains(where: { $0.type == "moof" }) {
            throw .unsupported("fragmented MP4 (samples in moof boxes)")
        }
        let tracks = try children.filter { $0.box.type == "trak" }.map { child throws(ContainerError) in
            try MP4SampleTable(track: child.payload)
        }
        guard !tracks.isEmpty else { throw .missing("tracks in moov") }
        for track in tracks {
            _ = try track.byteRanges(ofFirst: track.sampleSizes.count, fileLength: source.length)
        }
        return MP4Index(boxes: boxes, tracks: tracks, fileLength: source.length)
    }

    /// The top-level boxes, read in windows of ``scanWindow``, until both `moov` and `mdat`
    /// are found (as a player's demuxer does), a `moof` shows the file is fragmented, or the
    /// file ends.
    private static func scan(_ source: some MediaByteSource) async throws(ContainerError) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var window = (offset: Int64(0), data: Data())
        var offset: Int64 = 0
        while offset < source.length {
            guard boxes.count < boxLimit else { throw .unsupported("more than \(boxLimit) top-level boxes") }
            if offset < window.offset || offset + 16 > window.offset + Int64(window.data.count) {
                window = (offset, try await source.read(ByteRange(offset: offset, length: scanWindow)))
            }
            var cursor = BinaryCursor(window.data, at: Int(offset - window.offset), context: "top-level box")
            let box = try MP4Box.header(&cursor, offset: offset, limit: source.length)
            boxes.append(box)
            offset = box.range.upperBound
            let types = Set(boxes.map(\.type))
            if types.contains("moof") || (types.contains("moov") && types.contains("mdat")) { break }
        }
        return boxes
    }
}

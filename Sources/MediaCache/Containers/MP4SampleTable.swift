import Foundation

/// One track's sample tables (`stts`, `stsc`, `stsz`/`stz2`, `stco`/`co64`) and its time scale:
/// enough to say where the samples of a stretch of time lie in the file.
struct MP4SampleTable: Sendable {
    /// Ticks per second of the track's times.
    var timescale: UInt32
    /// Runs of samples of equal duration: (sample count, duration in ticks).
    var timeToSample: [(count: UInt32, delta: UInt32)]
    /// Runs of chunks with the same number of samples: (first chunk, from 1; samples per chunk).
    var sampleToChunk: [(firstChunk: UInt32, samplesPerChunk: UInt32)]
    /// Every sample's size in bytes.
    var sampleSizes: [UInt32]
    /// Every chunk's offset in the file.
    var chunkOffsets: [Int64]

    /// The track's duration in seconds.
    var duration: Double {
        let ticks = timeToSample.reduce(0.0) { $0 + Double($1.count) * Double($1.delta) }
        return timescale == 0 ? 0 : ticks / Double(timescale)
    }

    /// How many samples start before `seconds`.
    func sampleCount(before seconds: Double) -> Int {
        let limit = seconds * Double(timescale)
        var time = 0.0
        var count = 0
        for run in timeToSample {
            guard time < limit else { break }
            let fits = run.delta == 0 ? Double(run.count) : ((limit - time) / Double(run.delta)).rounded(.up)
            let taken = min(Double(run.count), fits)
            count += Int(taken)
            time += taken * Double(run.delta)
        }
        return min(count, sampleSizes.count)
    }

    /// The file ranges of the first `count` samples, a range per run of samples in a chunk.
    func byteRanges(ofFirst count: Int, fileLength: Int64) throws(ContainerError) -> ByteRangeSet {
        var ranges = ByteRangeSet()
        var sample = 0
        var run = 0
        var chunk = 0
        while sample < count {
            guard chunk < chunkOffsets.count else {
                throw .malformed("sample \(sample) lies in chunk \(chunk + 1) of \(chunkOffsets.count)")
            }
            while run + 1 < sampleToChunk.count, Int(sampleToChunk[run + 1].firstChunk) <= chunk + 1 { run += 1 }
            guard run < sampleToChunk.count, sampleToChunk[run].samplesPerChunk > 0 else {
                throw .malformed("chunk \(chunk + 1) holds no samples")
            }
            let taken = min(Int(sampleToChunk[run].samplesPerChunk), count - sample)
            let size = sampleSizes[sample..<sample + taken].reduce(Int64(0)) { $0 + Int64($1) }
            let range = ByteRange(offset: chunkOffsets[chunk], length: size)
            guard range.upperBound <= fileLength else {
                throw .malformed("chunk \(chunk + 1) at \(range) ends beyond the file's \(fileLength) bytes")
            }
            ranges.insert(range)
            sample += Int(sampleToChunk[run].samplesPerChunk)
            chunk += 1
        }
        return ranges
    }
}

extension MP4SampleTable {
    /// Parses the tables of a `trak` box's payload.
    init(track: Data) throws(ContainerError) {
        let context = "trak"
        guard let mdhd = try MP4Box.descendant(["mdia", "mdhd"], in: track, context: context) else { throw .missing("mdhd in a trak") }
        guard let stbl = try MP4Box.descendant(["mdia", "minf", "stbl"], in: track, context: context) else {
            throw .missing("stbl in a trak")
        }
        timescale = try Self.timescale(mdhd)
        var stts: Data?, stsc: Data?, stsz: Data?, stz2: Data?, stco: Data?, co64: Data?
        for (box, payload) in try MP4Box.children(of: stbl, context: "stbl") {
            switch box.type {
            case "stts": stts = payload
            case "stsc": stsc = payload
            case "stsz": stsz = payload
            case "stz2": stz2 = payload
            case "stco": stco = payload
            case "co64": co64 = payload
            default: break
            }
        }
        guard let stts else { throw .missing("stts in a stbl") }
        guard let stsc else { throw .missing("stsc in a stbl") }
        timeToSample = try Self.table(stts, "stts", width: 8) { cursor throws(ContainerError) in
            (try cursor.uint32(), try cursor.uint32())
        }
        sampleToChunk = try Self.table(stsc, "stsc", width: 12) { cursor throws(ContainerError) in
            let first = try cursor.uint32()
            let perChunk = try cursor.uint32()
            try cursor.skip(4)
            return (first, perChunk)
        }
        if let stsz {
            sampleSizes = try Self.sampleSizes(stsz)
        } else if let stz2 {
            sampleSizes = try Self.compactSampleSizes(stz2)
        } else {
            throw .missing("stsz or stz2 in a stbl")
        }
        if let stco {
            chunkOffsets = try Self.table(stco, "stco", width: 4) { cursor throws(ContainerError) in Int64(try cursor.uint32()) }
        } else if let co64 {
            chunkOffsets = try Self.table(co64, "co64", width: 8) { cursor throws(ContainerError) in
                Int64(clamping: try cursor.uint64())
            }
        } else {
            throw .missing("stco or co64 in a stbl")
        }
    }

    private static func timescale(_ mdhd: Data) throws(ContainerError) -> UInt32 {
        var cursor = BinaryCursor(mdhd, context: "mdhd")
        let version = try cursor.uint8()
        try cursor.skip(3 + (version == 1 ? 16 : 8))
        let timescale = try cursor.uint32()
        guard timescale > 0 else { throw .malformed("mdhd time scale is 0") }
        return timescale
    }

    /// A full box's entry table: version and flags, a 32-bit entry count, then the entries.
    private static func table<Entry>(
        _ payload: Data, _ name: String, width: Int, entry: (inout BinaryCursor) throws(ContainerError) -> Entry
    ) throws(ContainerError) -> [Entry] {
        var cursor = BinaryCursor(payload, context: name)
        try cursor.skip(4)
        let count = Int(try cursor.uint32())
        try cursor.require(count * width)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(try entry(&cursor)) }
        return entries
    }

    private static func sampleSizes(_ stsz: Data) throws(ContainerError) -> [UInt32] {
        var cursor = BinaryCursor(stsz, context: "stsz")
        try cursor.skip(4)
        let uniform = try cursor.uint32()
        let count = Int(try cursor.uint32())
        guard uniform == 0 else {
            // A uniform size needs no table; the count alone is bounded by nothing in the box.
            guard count <= 1 << 24 else { throw .malformed("stsz claims \(count) samples") }
            return Array(repeating: uniform, count: count)
        }
        try cursor.require(count * 4)
        return try (0..<count).map { _ throws(ContainerError) in try cursor.uint32() }
    }

    private static func compactSampleSizes(_ stz2: Data) throws(ContainerError) -> [UInt32] {
        var cursor = BinaryCursor(stz2, context: "stz2")
        try cursor.skip(7)
        let fieldSize = Int(try cursor.uint8())
        let count = Int(try cursor.uint32())
        guard [4, 8, 16].contains(fieldSize) else { throw .malformed("stz2 field size \(fieldSize)") }
        try cursor.require((count * fieldSize + 7) / 8)
        if fieldSize == 4 {
            let packed = try (0..<(count + 1) / 2).map { _ throws(ContainerError) in try cursor.uint8() }
            return (0..<count).map { index -> UInt32 in
                let byte = packed[index / 2]
                return UInt32(index.isMultiple(of: 2) ? byte >> 4 : byte & 0x0F)
            }
        }
        return try (0..<count).map { _ throws(ContainerError) in UInt32(try cursor.integer(bytes: fieldSize / 8)) }
    }
}

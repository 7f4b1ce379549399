/// The four-byte header of an MPEG audio frame (MPEG-1, -2 and -2.5, layers I to III).
struct MP3FrameHeader: Hashable, Sendable {
    enum Version: Hashable, Sendable { case mpeg1, mpeg2, mpeg25 }

    var version: Version
    /// 1, 2 or 3.
    var layer: Int
    /// Bits per second.
    var bitrate: Int
    /// Samples per second.
    var sampleRate: Int
    var padding: Bool
    var isMono: Bool

    /// Samples each frame decodes to.
    var samplesPerFrame: Int {
        switch (layer, version) {
        case (1, _): 384
        case (2, _), (3, .mpeg1): 1152
        default: 576
        }
    }

    /// The frame's length in bytes, header included.
    var frameLength: Int {
        switch layer {
        case 1: (12 * bitrate / sampleRate + (padding ? 1 : 0)) * 4
        default: samplesPerFrame / 8 * bitrate / sampleRate + (padding ? 1 : 0)
        }
    }

    /// Where a Xing or Info tag starts, counted from the frame's first byte: after the header
    /// and the layer III side information.
    var xingOffset: Int {
        4 + (version == .mpeg1 ? (isMono ? 17 : 32) : (isMono ? 9 : 17))
    }

    /// The seconds one frame plays.
    var frameDuration: Double { Double(samplesPerFrame) / Double(sampleRate) }

    private static let bitrates: [Int: [Int]] = [
        // kbit/s per index 1...14, by MPEG-1 layer (1, 2, 3) and MPEG-2/2.5 layer (11, 12 = 2 and 3)
        1: [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        2: [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        3: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        11: [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        12: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]

    /// Parses four bytes; `nil` when they are not a valid frame header (free-format bitrates
    /// and reserved values included).
    init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        let b = Array(bytes.prefix(4))
        guard b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
        switch (b[1] >> 3) & 0x03 {
        case 0: version = .mpeg25
        case 2: version = .mpeg2
        case 3: version = .mpeg1
        default: return nil
        }
        let layerBits = Int((b[1] >> 1) & 0x03)
        guard layerBits != 0 else { return nil }
        layer = 4 - layerBits
        let bitrateIndex = Int(b[2] >> 4)
        let rateIndex = Int((b[2] >> 2) & 0x03)
        guard (1...14).contains(bitrateIndex), rateIndex != 3 else { return nil }
        let table = version == .mpeg1 ? layer : (layer == 1 ? 11 : 12)
        bitrate = Self.bitrates[table]![bitrateIndex - 1] * 1000
        let baseRate = [44100, 48000, 32000][rateIndex]
        sampleRate =
            switch version {
            case .mpeg1: baseRate
            case .mpeg2: baseRate / 2
            case .mpeg25: baseRate / 4
            }
        padding = b[2] & 0x02 != 0
        isMono = b[3] >> 6 == 3
    }
}

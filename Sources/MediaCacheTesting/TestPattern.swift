import Foundation

/// Deterministic, position-dependent bytes: any misplaced, stale or spliced byte shows up as
/// a mismatch. The same `seed` and offset always give the same byte.
public enum TestPattern {
    /// The bytes at `offset..<offset+length` of the content identified by `seed`.
    public static func data(offset: Int64, length: Int, seed: UInt64) -> Data {
        var bytes = [UInt8](repeating: 0, count: length)
        var index = 0
        while index < length {
            let position = offset + Int64(index)
            let word = mix(UInt64(bitPattern: position >> 3) ^ (seed &* 0x9E37_79B9_7F4A_7C15))
            var lane = Int(position & 7)
            while lane < 8, index < length {
                bytes[index] = UInt8(truncatingIfNeeded: word >> (UInt64(lane) * 8))
                lane += 1
                index += 1
            }
        }
        return Data(bytes)
    }

    /// A seed for a resource name and version, stable across processes.
    public static func seed(_ name: String, version: Int64 = 0) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return mix(hash ^ UInt64(bitPattern: version))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

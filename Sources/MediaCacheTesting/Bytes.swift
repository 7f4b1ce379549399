import Foundation

/// Bytes as tests compare them: `#expect(Bytes(received) == Bytes(expected))`. A failed `==` of
/// two `Data` makes Swift Testing draw an element-by-element difference, which for megabytes
/// runs for hours and stalls the whole run; a failure of these names each side's length and
/// hash.
public struct Bytes: Equatable, Sendable, CustomStringConvertible {
    /// The bytes.
    public let data: Data

    /// `data` for comparison; `nil` as no bytes at all.
    public init(_ data: Data?) {
        self.data = data ?? Data()
    }

    /// The length and an FNV-1a hash, so that two different values of one length read apart.
    public var description: String {
        let hash = data.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
        return "\(data.count) bytes (FNV-1a \(String(hash, radix: 16)))"
    }

    public static func == (lhs: Bytes, rhs: Bytes) -> Bool {
        lhs.data == rhs.data
    }
}

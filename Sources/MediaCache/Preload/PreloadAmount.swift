/// How much of a resource a preload fetches.
///
/// ```swift
/// await preloader.preload(url, amount: .seconds(5))     // header boxes plus 5 s of every track
/// await preloader.preload(url, amount: .bytes(1 << 20)) // the first MiB
/// await preloader.preload(url, amount: .full)           // everything, for offline play
/// ```
///
/// In JSON: `{"seconds": 5}`, `{"bytes": 1048576}` or `{"full": true}`.
public enum PreloadAmount: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The first `n` bytes.
    case bytes(Int64)
    /// What a player reads to open the resource and play its first seconds: mapped through the
    /// container for MP4 and MP3, estimated from a bitrate otherwise.
    case seconds(Double)
    /// The whole resource.
    case full

    /// What a preload fetches when no amount is given: the first 10 seconds.
    public static let standard = PreloadAmount.seconds(10)

    /// The longest time a preload maps: a day.
    public static let maximumSeconds: Double = 86_400

    /// Whether the amount can be fetched: a byte count in ``ByteSize/range`` or a time above 0
    /// and up to ``maximumSeconds``.
    public var isValid: Bool {
        (try? checked()) != nil
    }

    /// The amount, when it ``isValid``.
    ///
    /// - Throws: ``InputError`` naming the JSON field (`seconds` or `bytes`) and the accepted
    ///   range.
    public func checked() throws(InputError) -> PreloadAmount {
        switch self {
        case .bytes(let count):
            guard ByteSize.range.contains(count) else {
                throw InputError(field: "bytes", value: "\(count)", accepted: ByteSize.accepted)
            }
        case .seconds(let seconds):
            _ = try CheckedNumber.seconds(seconds, in: 0...Self.maximumSeconds, excludingLower: true, field: "seconds")
        case .full:
            break
        }
        return self
    }

    /// The larger of two amounts of the same kind; of different kinds, `other` (the newer).
    func merged(with other: PreloadAmount) -> PreloadAmount {
        switch (self, other) {
        case (.full, _), (_, .full): .full
        case (.bytes(let a), .bytes(let b)): .bytes(max(a, b))
        case (.seconds(let a), .seconds(let b)): .seconds(max(a, b))
        default: other
        }
    }

    public var description: String {
        switch self {
        case .bytes(let count): "\(count) bytes"
        case .seconds(let seconds): "\(seconds) s"
        case .full: "full"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case bytes, seconds, full
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let count = try container.decodeIfPresent(Int64.self, forKey: .bytes) {
            self = .bytes(count)
        } else if let seconds = try container.decodeIfPresent(Double.self, forKey: .seconds) {
            self = .seconds(seconds)
        } else if try container.decodeIfPresent(Bool.self, forKey: .full) == true {
            self = .full
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "give \"seconds\", \"bytes\" or \"full\": true"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .bytes(let count): try container.encode(count, forKey: .bytes)
        case .seconds(let seconds): try container.encode(seconds, forKey: .seconds)
        case .full: try container.encode(true, forKey: .full)
        }
    }
}

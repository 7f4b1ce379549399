import Foundation

/// What of an HLS presentation to download, chosen before anything is fetched and kept with
/// the download, so that offline playback asks only for what is there.
///
/// ```swift
/// let selection = DownloadSelection(variant: .maximumBandwidth(3_000_000), audio: .languages(["en", "de"]),
///                                   subtitles: .default)
/// let choice = try selection.resolve(in: multivariant, base: url)   // the playlists to fetch
/// ```
public struct DownloadSelection: Hashable, Sendable, Codable {
    /// Which variant.
    public enum Variant: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The highest bandwidth (as Apple does).
        case highest
        /// The lowest bandwidth.
        case lowest
        /// The best at or under this many bits per second (else the lowest).
        case maximumBandwidth(Int)
        /// The best at or under this width and height (else the smallest).
        case maximumResolution(width: Int, height: Int)

        public var description: String {
            switch self {
            case .highest: "highest"
            case .lowest: "lowest"
            case .maximumBandwidth(let bandwidth): "\(bandwidth)"
            case .maximumResolution(let width, let height): "\(width)x\(height)"
            }
        }

        /// `highest`, `lowest`, bits per second (`3000000`) or a resolution (`1280x720`).
        public init?(_ text: String) {
            let text = text.trimmingCharacters(in: .whitespaces).lowercased()
            switch text {
            case "highest": self = .highest
            case "lowest": self = .lowest
            default:
                if let bandwidth = Int(text), bandwidth > 0 {
                    self = .maximumBandwidth(bandwidth)
                    return
                }
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { return nil }
                self = .maximumResolution(width: parts[0], height: parts[1])
            }
        }
    }

    /// Which renditions of one type.
    public enum Renditions: Hashable, Sendable, Codable, CustomStringConvertible {
        /// None.
        case none
        /// The one marked `DEFAULT=YES` in the variant's group (for audio, else the first).
        case `default`
        /// Every one in the variant's group.
        case all
        /// Those of these languages (RFC 5646 tags, compared without case).
        case languages([String])

        public var description: String {
            switch self {
            case .none: "none"
            case .default: "default"
            case .all: "all"
            case .languages(let languages): languages.joined(separator: ",")
            }
        }

        /// `none`, `default`, `all`, or languages separated by commas (`en,de`).
        public init?(_ text: String) {
            let text = text.trimmingCharacters(in: .whitespaces)
            switch text.lowercased() {
            case "none": self = .none
            case "default": self = .default
            case "all": self = .all
            default:
                let languages = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard !languages.isEmpty, languages.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0 == "-" } }) else {
                    return nil
                }
                self = .languages(languages)
            }
        }
    }

    /// The variant. Default: ``Variant/highest``.
    public var variant: Variant
    /// Audio renditions. Default: ``Renditions/default``.
    public var audio: Renditions
    /// Subtitle and closed-caption renditions. Default: ``Renditions/none``.
    public var subtitles: Renditions

    /// Creates a selection.
    public init(variant: Variant = .highest, audio: Renditions = .default, subtitles: Renditions = .none) {
        self.variant = variant
        self.audio = audio
        self.subtitles = subtitles
    }
}

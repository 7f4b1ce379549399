/// Why a container could not be mapped from seconds to bytes.
///
/// A preload that meets one falls back to a byte estimate and reports the error, so that a
/// malformed or unusual file never stops a preload, nor crashes the parser.
public enum ContainerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file ends, or a box or table ends, before the bytes the structure announces.
    case truncated(String)
    /// A structure says something impossible, such as a box smaller than its header.
    case malformed(String)
    /// A required part is missing, such as an MP4 without `moov` or an MP3 without a frame.
    case missing(String)
    /// The container is valid but of a kind this parser does not map, such as a fragmented MP4.
    case unsupported(String)
    /// Reading the bytes failed.
    case read(String)

    public var description: String {
        switch self {
        case .truncated(let what): "truncated container: \(what)"
        case .malformed(let what): "malformed container: \(what)"
        case .missing(let what): "container lacks \(what)"
        case .unsupported(let what): "unsupported container: \(what)"
        case .read(let cause): "could not read the container: \(cause)"
        }
    }
}

/// Why a container could not be mapped from seconds to bytes.
///
/// A preload that meets one falls back to a byte estimate and reports the error, so that a
/// malformed or unusual file never stops a preload, nor crashes the parser.
///
/// ```swift
/// if let error = plan.containerError, error.code == .unsupported {
///     print(error)   // unsupported container: fragmented MP4 (samples in moof boxes)
/// }
/// ```
public struct ContainerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of container failure.
    public typealias Code = ErrorCode<ContainerError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, naming the box, table or frame and where it is.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The file ends, or a box or table ends, before the bytes the structure announces.
    public static func truncated(_ what: String) -> Self { Self(.truncated, "truncated container: \(what)") }
    /// A structure says something impossible, such as a box smaller than its header.
    public static func malformed(_ what: String) -> Self { Self(.malformed, "malformed container: \(what)") }
    /// A required part is missing, such as an MP4 without `moov` or an MP3 without a frame.
    public static func missing(_ what: String) -> Self { Self(.missing, "container lacks \(what)") }
    /// The container is valid but of a kind this parser does not map, such as a fragmented MP4.
    public static func unsupported(_ what: String) -> Self { Self(.unsupported, "unsupported container: \(what)") }
    /// Reading the bytes failed.
    public static func read(_ cause: String) -> Self { Self(.read, "could not read the container: \(cause)") }

    public var description: String { message }
}

extension ErrorCode where Owner == ContainerError {
    /// The file or a structure ends before the bytes it announces.
    public static var truncated: Self { Self("truncated") }
    /// A structure says something impossible.
    public static var malformed: Self { Self("malformed") }
    /// A required part is missing.
    public static var missing: Self { Self("missing") }
    /// The container is of a kind this parser does not map.
    public static var unsupported: Self { Self("unsupported") }
    /// Reading the bytes failed.
    public static var read: Self { Self("read") }
}

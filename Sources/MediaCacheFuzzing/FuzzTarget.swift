import Foundation

/// A parser that reads what strangers send, with the laws it must keep for any input.
///
/// Each target takes arbitrary bytes, feeds them to one parser through its public API and
/// checks what the parser promises: it never traps, what it accepts is consistent, and where
/// it writes as well as reads, what it writes reads back the same. A broken law is returned as
/// a ``FuzzFailure``; a trap is a crash of the process, which libFuzzer records.
///
/// ```swift
/// if let failure = await FuzzTarget.playlist.check(Data("#EXTM3U\n#EXTINF:4,\na.ts\n".utf8)) {
///     print(failure)
/// }
/// ```
///
/// `scripts/fuzz` runs each target under libFuzzer; the test suite runs each over its seed
/// corpus in `Fuzz/corpus/<target>` and over every input that once failed, in
/// `Fuzz/regressions/<target>`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// HLS playlists: parse, read as a media or multivariant playlist, rewrite, write.
    case playlist
    /// A `Range` and `If-Range` request header pair, planned against a resource.
    case range
    /// A proxy request target, decoded to the origin URL it stands for.
    case proxyPath = "proxy-path"
    /// An origin's response head, interpreted for the request it answers.
    case response
    /// An MP4 file's box structure and sample tables.
    case mp4
    /// An MP3 file's frame headers and Xing/VBRI seek tables.
    case mp3

    /// The first law `input` breaks, or `nil` when it keeps them all.
    public func check(_ input: Data) async -> FuzzFailure? {
        switch self {
        case .playlist: PlaylistFuzzing.check(input)
        case .range: RangePlanFuzzing.check(input)
        case .proxyPath: ProxyPathFuzzing.check(input)
        case .response: ResponseHeadFuzzing.check(input)
        case .mp4: await ContainerFuzzing.checkMP4(input)
        case .mp3: await ContainerFuzzing.checkMP3(input)
        }
    }
}

/// A law a parser broke for one input.
public struct FuzzFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, with the values involved.
    public var description: String

    /// A failure described by `description`.
    public init(_ description: String) {
        self.description = description
    }
}

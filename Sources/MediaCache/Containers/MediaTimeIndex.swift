/// A container's map from playback time to the bytes a player reads, as far as the parser
/// needs it to preload the first seconds of a resource.
public protocol MediaTimeIndex: Sendable {
    /// The container's name, such as `mp4` or `mp3`, for reports.
    var format: String { get }
    /// The playback duration in seconds, when the container says.
    var duration: Double? { get }
    /// The bytes a player reads to open the resource and play its first `seconds`: header
    /// structures plus the media data of that time, on every track.
    func byteRanges(forFirst seconds: Double) -> ByteRangeSet
}

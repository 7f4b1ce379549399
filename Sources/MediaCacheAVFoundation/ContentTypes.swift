import Foundation

/// Maps what the origin says a resource is (its MIME type, else its file extension) to the UTI
/// a content-information request must carry.
public enum ContentTypes {
    private static let byMIMEType: [String: String] = [
        "video/mp4": "public.mpeg-4", "application/mp4": "public.mpeg-4",
        "video/x-m4v": "com.apple.m4v-video", "video/quicktime": "com.apple.quicktime-movie",
        "audio/mp4": "com.apple.m4a-audio", "audio/x-m4a": "com.apple.m4a-audio", "audio/m4a": "com.apple.m4a-audio",
        "audio/mpeg": "public.mp3", "audio/mp3": "public.mp3", "audio/x-mp3": "public.mp3",
        "audio/aac": "public.aac-audio", "audio/x-aac": "public.aac-audio", "audio/aacp": "public.aac-audio",
        "audio/wav": "com.microsoft.waveform-audio", "audio/x-wav": "com.microsoft.waveform-audio",
        "audio/wave": "com.microsoft.waveform-audio", "audio/vnd.wave": "com.microsoft.waveform-audio",
        "audio/aiff": "public.aiff-audio", "audio/x-aiff": "public.aiff-audio",
        "audio/x-caf": "com.apple.coreaudio-format", "audio/flac": "org.xiph.flac", "audio/x-flac": "org.xiph.flac",
        "video/mp2t": "public.mpeg-2-transport-stream",
        "application/vnd.apple.mpegurl": "public.m3u-playlist", "application/x-mpegurl": "public.m3u-playlist",
        "audio/mpegurl": "public.m3u-playlist", "audio/x-mpegurl": "public.m3u-playlist",
    ]

    private static let byExtension: [String: String] = [
        "mp4": "public.mpeg-4", "m4v": "com.apple.m4v-video", "mov": "com.apple.quicktime-movie",
        "m4a": "com.apple.m4a-audio", "mp3": "public.mp3", "aac": "public.aac-audio",
        "wav": "com.microsoft.waveform-audio", "aif": "public.aiff-audio", "aiff": "public.aiff-audio",
        "caf": "com.apple.coreaudio-format", "flac": "org.xiph.flac", "ts": "public.mpeg-2-transport-stream",
        "m3u8": "public.m3u-playlist", "m3u": "public.m3u-playlist",
    ]

    /// The UTI for a resource, from its MIME type (parameters ignored), else from the extension
    /// of `url`; `nil` when neither is known. A generic `application/octet-stream` defers to the
    /// extension.
    public static func uti(mimeType: String?, url: URL) -> String? {
        let type = mimeType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return type.flatMap { byMIMEType[$0] } ?? byExtension[url.pathExtension.lowercased()]
    }

    /// Types a player may take for one another: the same container under other names.
    private static let families: [[String]] = [
        ["public.mpeg-4", "com.apple.m4v-video", "com.apple.quicktime-movie"],
        ["com.apple.m4a-audio", "public.mpeg-4-audio", "public.mpeg-4"],
        ["public.m3u-playlist"],
    ]

    /// The UTI to report for a resource to a player that accepts `allowed` (Apple raises when a
    /// request with a non-empty list is finished with a type outside it, nil included): the
    /// resource's own UTI when allowed, else an allowed UTI of the same container, else `nil`.
    /// Without a list (or with an empty one) the resource's own UTI, which may be `nil`.
    public static func contentType(mimeType: String?, url: URL, allowed: [String]?) -> String? {
        let own = uti(mimeType: mimeType, url: url)
        guard let allowed, !allowed.isEmpty else { return own }
        guard let own else { return nil }
        if allowed.contains(own) { return own }
        let family = families.first { $0.contains(own) } ?? []
        return family.first(where: allowed.contains)
    }
}

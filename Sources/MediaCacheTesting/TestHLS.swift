import Foundation

/// An HLS presentation that ffmpeg generates for tests: H.264 and AAC in MPEG-TS segments of
/// two seconds, a VOD media playlist `index.m3u8`, and segment URIs relative or absolute.
///
/// ```swift
/// let files = try await TestHLS(seconds: 6, baseURL: origin.url("/hls/")).make(in: directory)
/// for (name, data) in files { origin.serve("/hls/" + name, content: .data(data, mimeType: TestHLS.mimeType(of: name))) }
/// ```
public struct TestHLS: Sendable {
    /// How long the presentation plays.
    public var seconds: Int
    /// The URL segment URIs start with (`-hls_base_url`); `nil` for relative URIs.
    public var baseURL: URL?

    /// A presentation of `seconds`, with segment URIs under `baseURL` when given.
    public init(seconds: Int, baseURL: URL? = nil) {
        self.seconds = seconds
        self.baseURL = baseURL
    }

    /// The MIME type an origin serves a file of the presentation with.
    public static func mimeType(of name: String) -> String {
        name.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t"
    }

    /// Generates the presentation in a new folder of `directory`; answers each file's name and
    /// bytes.
    ///
    /// - Throws: ``Tools/Missing`` without ffmpeg, ``TestMedia/Failure`` when ffmpeg fails.
    public func make(in directory: String) async throws -> [String: Data] {
        let ffmpeg = try Tools.require("ffmpeg")
        let folder = directory + "/hls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var arguments = ["-v", "error", "-y",
                         "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(seconds)",
                         "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                         "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest",
                         "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                         "-hls_segment_filename", folder + "/segment%d.ts"]
        if let baseURL { arguments += ["-hls_base_url", baseURL.absoluteString] }
        let run = try await CommandRun.run(path: ffmpeg, arguments + [folder + "/index.m3u8"])
        guard run.status == 0 else { throw TestMedia.Failure(name: "index.m3u8", message: run.errorOutput) }
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }
}

import Foundation

/// Media files that ffmpeg generates for tests: video with audio in MP4 (moov first or last),
/// MP3 at a constant or variable bitrate, with or without an ID3v2 tag.
///
/// ```swift
/// let mp4 = try await TestMedia.moovAtEndMP4(seconds: 20).make(in: directory)
/// ```
public struct TestMedia: Sendable {
    /// The file name, with the extension the container needs.
    public var name: String
    /// The MIME type an origin serves it with.
    public var mimeType: String
    /// ffmpeg's arguments between `-y` and the output file.
    public var arguments: [String]

    /// A file ffmpeg makes from `arguments` (inputs and codecs) into `name`.
    public init(name: String, mimeType: String, arguments: [String]) {
        self.name = name
        self.mimeType = mimeType
        self.arguments = arguments
    }

    /// H.264 and AAC in an MP4 whose `moov` comes first.
    public static func faststartMP4(seconds: Int) -> TestMedia {
        TestMedia(name: "faststart.mp4", mimeType: "video/mp4", arguments: video(seconds) + ["-movflags", "+faststart"])
    }

    /// H.264 and AAC in an MP4 whose `moov` comes after `mdat`, as encoders write by default.
    public static func moovAtEndMP4(seconds: Int) -> TestMedia {
        TestMedia(name: "moov-at-end.mp4", mimeType: "video/mp4", arguments: video(seconds))
    }

    /// MP3 at 128 kbit/s, with an Info tag unless `tagged` is false.
    public static func constantBitrateMP3(seconds: Int, tagged: Bool = true) -> TestMedia {
        TestMedia(
            name: tagged ? "cbr.mp3" : "cbr-untagged.mp3", mimeType: "audio/mpeg",
            arguments: tone(seconds) + ["-c:a", "libmp3lame", "-b:a", "128k"] + (tagged ? [] : ["-write_xing", "0"]))
    }

    /// MP3 at a variable bitrate, with a Xing tag and its seek table, after an ID3v2 tag.
    public static func variableBitrateMP3(seconds: Int) -> TestMedia {
        TestMedia(
            name: "vbr.mp3", mimeType: "audio/mpeg",
            arguments: ["-f", "lavfi", "-i", "anoisesrc=duration=\(seconds):color=pink:amplitude=0.3"]
                + ["-c:a", "libmp3lame", "-q:a", "2", "-metadata", "title=Test tone", "-id3v2_version", "3"])
    }

    /// VP8 and Opus in WebM, which browsers play.
    public static func webm(seconds: Int) -> TestMedia {
        TestMedia(
            name: "clip.webm", mimeType: "video/webm",
            arguments: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(seconds)"]
                + tone(seconds) + ["-c:v", "libvpx", "-b:v", "300k", "-c:a", "libopus", "-shortest"])
    }

    private static func video(_ seconds: Int) -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(seconds)"] + tone(seconds)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest"]
    }

    private static func tone(_ seconds: Int) -> [String] {
        ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)"]
    }

    /// Generates the file in `directory` and returns its bytes.
    ///
    /// - Throws: ``Tools/Missing`` without ffmpeg, ``Failure`` when ffmpeg fails.
    public func make(in directory: String) async throws -> Data {
        let ffmpeg = try Tools.require("ffmpeg")
        let path = directory + "/" + name
        let run = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-y"] + arguments + [path])
        guard run.status == 0 else { throw Failure(name: name, message: run.errorOutput) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// ffmpeg could not generate a file.
    public struct Failure: Error, CustomStringConvertible {
        /// The file.
        public var name: String
        /// What ffmpeg said.
        public var message: String

        public var description: String { "ffmpeg could not make \(name): \(message)" }
    }
}

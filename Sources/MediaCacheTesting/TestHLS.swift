import Foundation

/// An HLS presentation that ffmpeg generates for tests, in one of the shapes players meet:
/// H.264 and AAC in two-second segments with a VOD playlist.
///
/// ```swift
/// let hls = TestHLS(.multivariant, seconds: 6)
/// let files = try await hls.make(in: directory)     // "master.m3u8", "v0/index.m3u8", "v0/seg0.ts", …
/// for (path, data) in files { origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
/// ```
public struct TestHLS: Sendable {
    /// How the presentation is cut and described.
    public enum Shape: String, Sendable, CaseIterable, CustomStringConvertible {
        /// MPEG-TS segments.
        case ts
        /// fMP4 segments after an `EXT-X-MAP` init section.
        case fmp4
        /// MPEG-TS segments encrypted with AES-128, the key a file beside the playlist.
        case aes128
        /// One MPEG-TS file, segments as `EXT-X-BYTERANGE`s of it.
        case singleFileTS
        /// One fMP4 file: the init section (`EXT-X-MAP` with `BYTERANGE`) and segments as ranges.
        case singleFileFMP4
        /// A multivariant playlist: a video variant with a WebVTT subtitle rendition, and an
        /// audio group of two languages.
        case multivariant

        public var description: String { rawValue }
    }

    /// The shape.
    public var shape: Shape
    /// How long the presentation plays.
    public var seconds: Int
    /// The URL segment URIs start with (`-hls_base_url`); `nil` for relative URIs.
    public var baseURL: URL?

    /// A presentation of `shape`, `seconds` long, with segment URIs under `baseURL` when given.
    public init(_ shape: Shape = .ts, seconds: Int, baseURL: URL? = nil) {
        self.shape = shape
        self.seconds = seconds
        self.baseURL = baseURL
    }

    /// The playlist a player opens.
    public var entry: String { shape == .multivariant ? "master.m3u8" : "index.m3u8" }

    /// The MIME type an origin serves a file of the presentation with.
    public static func mimeType(of path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s": "video/mp4"
        case "vtt": "text/vtt"
        default: "application/octet-stream"
        }
    }

    /// Generates the presentation in a new folder of `directory`; answers each file's path
    /// within it and bytes.
    ///
    /// - Throws: ``Tools/Missing`` without ffmpeg, ``TestMedia/Failure`` when ffmpeg fails.
    public func make(in directory: String) async throws -> [String: Data] {
        let ffmpeg = try Tools.require("ffmpeg")
        let folder = directory + "/hls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let run = try await CommandRun.run(path: ffmpeg, ["-v", "error", "-y"] + (try arguments(in: folder)))
        guard run.status == 0 else { throw TestMedia.Failure(name: "\(shape) HLS", message: run.errorOutput) }
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            guard !["keyinfo", "subtitles.srt"].contains(path) else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return files
    }

    private func arguments(in folder: String) throws -> [String] {
        let video = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(seconds)"]
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)"]
        let codecs = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac"]
        var hls = ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]
        if let baseURL { hls += ["-hls_base_url", baseURL.absoluteString] }
        switch shape {
        case .ts:
            return video + tone + codecs + ["-shortest"] + hls + [
                "-hls_segment_filename", folder + "/segment%d.ts", folder + "/index.m3u8",
            ]
        case .fmp4:
            return video + tone + codecs + ["-shortest"] + hls
                + ["-hls_segment_type", "fmp4", "-hls_segment_filename", folder + "/segment%d.m4s", folder + "/index.m3u8"]
        case .aes128:
            try Data((0..<16).map { UInt8($0 * 7 + 3) }).write(to: URL(fileURLWithPath: folder + "/key.bin"))
            try "key.bin\n\(folder)/key.bin\n".write(toFile: folder + "/keyinfo", atomically: true, encoding: .utf8)
            return video + tone + codecs + ["-shortest"] + hls
                + ["-hls_key_info_file", folder + "/keyinfo", "-hls_segment_filename", folder + "/segment%d.ts", folder + "/index.m3u8"]
        case .singleFileTS:
            return video + tone + codecs + ["-shortest"] + hls + ["-hls_flags", "single_file", folder + "/index.m3u8"]
        case .singleFileFMP4:
            return video + tone + codecs + ["-shortest"] + hls
                + ["-hls_flags", "single_file", "-hls_segment_type", "fmp4", folder + "/index.m3u8"]
        case .multivariant:
            let cues = "1\n00:00:00.500 --> 00:00:02.000\nHello\n\n2\n00:00:03.000 --> 00:00:05.000\nWorld\n"
            try cues.write(toFile: folder + "/subtitles.srt", atomically: true, encoding: .utf8)
            let second = ["-f", "lavfi", "-i", "sine=frequency=660:duration=\(seconds)"]
            return video + tone + second + ["-i", folder + "/subtitles.srt"]
                + ["-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s"] + codecs + ["-c:s", "webvtt"] + hls
                + [
                    "-master_pl_name", "master.m3u8",
                    "-var_stream_map", "v:0,s:0,agroup:aud,sgroup:subs a:0,agroup:aud,language:en,default:yes a:1,agroup:aud,language:de",
                    "-hls_segment_filename", folder + "/v%v/segment%d.ts", folder + "/v%v/index.m3u8",
                ]
        }
    }
}

import Foundation
import Testing
@testable import MediaCacheHLS

@Suite(.timeLimit(.minutes(2))) struct PlaylistDetectionTests {
    @Test(arguments: [
        ("application/vnd.apple.mpegurl", "application/vnd.apple.mpegurl"),
        (" Application/VND.Apple.MPEGURL ; charset=utf-8", "application/vnd.apple.mpegurl"),
        ("audio/mpegurl;charset=UTF-8", "audio/mpegurl"),
        ("video/mp4", "video/mp4"),
        ("\tTEXT/Plain\r\n", "text/plain"),
        ("Audio/X-MPEGURL\u{00A0}", "audio/x-mpegurl"),
        ("ÄUDIO/MP4; q=1", "äudio/mp4"),
        ("", ""),
    ])
    func aContentTypeIsComparedByItsMediaTypeAlone(_ contentType: String, _ expected: String) {
        #expect(PlaylistDetection.mediaType(of: contentType) == expected)
    }

    @Test(arguments: [
        ("https://cdn.example/v/seg1.M4S?sig=a", true),
        ("https://cdn.example/film.mp4", true),
        ("https://cdn.example/a/b.ts#t=1", true),
        ("https://cdn.example/live", false),
        ("https://cdn.example/index.m3u8", false),
        ("https://cdn.example/mp4/stream", false),
    ])
    func aMediaFileIsNamedByItsPathsExtension(_ url: String, _ isMedia: Bool) throws {
        #expect(PlaylistDetection.isMediaExtension(PlaylistDetection.pathExtension(of: try #require(URL(string: url)))) == isMedia)
    }

    /// The extension read byte by byte is Foundation's, and every path it does not read plainly
    /// is left to Foundation.
    @Test func aPathsExtensionIsReadAsFoundationReadsIt() throws {
        let paths = [
            "/v/clip.mp4", "/v/Clip.MP4", "/index.m3u8", "/a.b.c.ts", "/v/live", "/v/seg-1_x.m4s", "/v/.m3u8", "/v/..m3u8",
            "/v/a..m3u8", "/v/a.", "/v/a.m3u8/", "/", "", "/v/a.m3%75", "/v/a%2Em3u8", "/v/a.mp4;x=1", "/v/a b.mp4",
            "/v/a.m-4", "/v/a.m_4", "/v/ä.mp4", "/v/a.tar.gz", "/v/a.MP4x", "/v/-.ts", "/v/_", "/a.mp4/b", "/v/a.m3u",
        ]
        for path in paths {
            guard let url = URL(string: "https://cdn.example\(path)?q=a.b#c.d") else { continue }
            #expect(PlaylistDetection.pathExtension(of: url) == url.pathExtension.lowercased(), "\(path)")
        }
        #expect(PlaylistDetection.plainPathExtension(of: "/v/Clip.MP4") == "mp4")
        #expect(PlaylistDetection.plainPathExtension(of: "/v/live") == "")
        for path in ["", "/v/", "/v/a%2Em3u8", "/v/.m3u8", "/v/a.mp4;x=1", "/v/a."] {
            #expect(PlaylistDetection.plainPathExtension(of: path) == nil, "\(path)")
        }
    }
}

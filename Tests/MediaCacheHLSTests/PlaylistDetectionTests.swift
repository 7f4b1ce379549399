import Foundation
import Testing
@testable import MediaCacheHLS

@Suite struct PlaylistDetectionTests {
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
}

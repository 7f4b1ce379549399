import Testing
@testable import MediaCacheHLS

@Suite struct PlaylistDetectionTests {
    @Test(arguments: [
        ("application/vnd.apple.mpegurl", "application/vnd.apple.mpegurl"),
        (" Application/VND.Apple.MPEGURL ; charset=utf-8", "application/vnd.apple.mpegurl"),
        ("audio/mpegurl;charset=UTF-8", "audio/mpegurl"),
        ("video/mp4", "video/mp4"),
        ("", ""),
    ])
    func aContentTypeIsComparedByItsMediaTypeAlone(_ contentType: String, _ expected: String) {
        #expect(PlaylistDetection.mediaType(of: contentType) == expected)
    }
}

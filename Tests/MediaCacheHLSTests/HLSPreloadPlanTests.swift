import Foundation
import MediaCache
@testable import MediaCacheHLS
import Testing

/// What an HLS preload starts with: the variant, renditions and segments a player needs.
@Suite(.timeLimit(.minutes(2))) struct HLSPreloadPlanTests {
    let base = URL(string: "https://cdn.test/film/master.m3u8")!

    let multivariant = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Deutsch",LANGUAGE="de",URI="de.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",URI="subs.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080,AUDIO="a",SUBTITLES="s"
        1080.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,AUDIO="a",SUBTITLES="s"
        720.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,AUDIO="a",SUBTITLES="s"
        360.m3u8

        """

    func start(_ bandwidth: Int?) throws -> HLSStart? {
        HLSStart(try MultivariantPlaylist(try Playlist(parsing: Data(multivariant.utf8))), maximumBandwidth: bandwidth)
    }

    @Test func theVariantIsTheFirstListedOrTheBestWithinTheBandwidth() throws {
        #expect(try start(nil)?.variant.resolution == "1920x1080")
        #expect(try start(3_000_000)?.variant.resolution == "1280x720")
        #expect(try start(100_000)?.variant.resolution == "640x360", "below every variant: the lowest")
        let chosen = try #require(try start(nil))
        #expect(chosen.audio?.language == "en", "the default audio, not the first listed")
        #expect(chosen.subtitles == nil, "subtitles nobody turned on are not preloaded")
        #expect(chosen.playlists(base: base).map(\.url.lastPathComponent) == ["1080.m3u8", "en.m3u8"])
    }

    @Test func segmentsCoverTheSecondsWithTheirKeysAndInitSectionsOnce() throws {
        let media = try MediaPlaylist(
            try Playlist(
                parsing: Data(
                    """
                    #EXTM3U
                    #EXT-X-TARGETDURATION:2
                    #EXT-X-MAP:URI="film.mp4",BYTERANGE="700@0"
                    #EXT-X-KEY:METHOD=AES-128,URI="k.bin"
                    #EXTINF:2,
                    #EXT-X-BYTERANGE:1000@700
                    film.mp4
                    #EXTINF:2,
                    #EXT-X-BYTERANGE:1000
                    film.mp4
                    #EXTINF:2,
                    #EXT-X-BYTERANGE:1000
                    film.mp4
                    #EXTINF:2,
                    #EXT-X-BYTERANGE:1000
                    film.mp4
                    #EXT-X-ENDLIST

                    """.utf8)))
        let targets = media.preloadTargets(forFirst: 5, base: base)
        #expect(targets.map(\.url.lastPathComponent) == ["k.bin", "film.mp4"])
        #expect(targets[0].ranges == nil)
        #expect(targets[1].ranges == [ByteRange(0, 3_700)], "the init section and three segments of one file, as one range")
    }

    @Test func aLivePlaylistStartsThreeSegmentsFromItsEnd() throws {
        let lines = (0..<6).map { "#EXTINF:2,\ns\($0).ts" }.joined(separator: "\n")
        let media = try MediaPlaylist(try Playlist(parsing: Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(lines)\n".utf8)))
        #expect(media.preloadTargets(forFirst: 4, base: base).map(\.url.lastPathComponent) == ["s3.ts", "s4.ts"])
    }
}

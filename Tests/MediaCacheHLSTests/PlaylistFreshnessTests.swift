import Foundation
import MediaCacheHLS
import Testing

/// How long playlists are served without the origin, from their tags alone.
@Suite(.timeLimit(.minutes(1))) struct PlaylistFreshnessRuleTests {
    let live = Data("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n".utf8)
    let vod = Data("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n".utf8)
    let event = Data("#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n".utf8)
    let multivariant = Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n".utf8)

    @Test func aLivePlaylistIsReloadedEveryHalfTargetDurationAndServedStaleForAFewOfThem() {
        let freshness = PlaylistFreshness(staticMaximumAge: .seconds(60), liveOutageTargetDurations: 4)
        #expect(freshness.maximumAge(of: live) == .seconds(3))
        #expect(freshness.maximumStaleAge(of: live) == .seconds(24))
        #expect(PlaylistFreshness().maximumStaleAge(of: live) == .seconds(18), "three target durations by default")
    }

    @Test func aLivePlaylistWhoseTargetDurationCannotBeReadIsAskedForEveryTime() {
        let broken = Data("#EXTM3U\n#EXT-X-TARGETDURATION:\n#EXTINF:6,\na.ts\n".utf8)
        #expect(PlaylistFreshness().maximumAge(of: broken) == .zero)
        #expect(PlaylistFreshness().maximumStaleAge(of: broken) == nil)
    }

    @Test func finishedAndMultivariantPlaylistsAreServedStaleAsLongAsTheOutageLasts() {
        let freshness = PlaylistFreshness()
        for body in [vod, event, multivariant] {
            #expect(freshness.maximumAge(of: body) == .seconds(60))
            #expect(freshness.maximumStaleAge(of: body) == nil)
        }
    }
}

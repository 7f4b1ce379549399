import Foundation
import MediaCache
import Testing
@testable import MediaCacheHLS

/// The semantic models read from the corpus: what applies to each segment, the implicit
/// byte-range offset, sequence numbers, variants and renditions, and precise errors.
@Suite(.timeLimit(.minutes(2))) struct PlaylistModelTests {
    @Test func aMediaPlaylistSaysWhatAppliesToEachSegment() throws {
        let media = try MediaPlaylist(try Playlist(parsing: PlaylistCorpus.media))
        #expect(media.targetDuration == 4 && media.mediaSequence == 120 && media.discontinuitySequence == 3)
        #expect(media.playlistType == .vod && media.hasEndList && media.isFinished)
        #expect(media.segments.map(\.uri) == ["media.mp4", "media.mp4", "/root/relative/seg3.m4s"])
        #expect(media.segments.map(\.mediaSequence) == [120, 121, 122])
        #expect(media.segments.map(\.startTime) == [0, 4, 8])
        #expect(media.duration == 11.5)
        #expect(media.segments[0].title == "first segment" && media.segments[1].title == nil)
        #expect(media.segments[0].byteRange == ByteRange(offset: 720, length: 75_232))
        #expect(media.segments[1].byteRange == ByteRange(offset: 75_952, length: 82_112), "the implicit offset follows the previous range")
        #expect(media.segments[0].initSection == InitSection(uri: "init.mp4", byteRange: ByteRange(offset: 0, length: 720)))
        #expect(media.segments[0].keys.map(\.uri) == ["https://keys.example/k1.bin"])
        #expect(media.segments[0].programDateTime == "2026-11-22T06:51:47.376+00:00")
        #expect(media.segments[2].keys.isEmpty, "METHOD=NONE ends the key")
        #expect(media.segments[2].isDiscontinuity && media.segments[2].discontinuitySequence == 4 && media.segments[2].isGap)
        #expect(media.segments[1].discontinuitySequence == 3)
    }

    @Test func aMultivariantPlaylistListsVariantsRenditionsAndSessionKeys() throws {
        let multivariant = try MultivariantPlaylist(try Playlist(parsing: PlaylistCorpus.multivariant))
        #expect(
            multivariant.variants.map(\.uri) == ["video/360p.m3u8", "https://cdn.example/video/720p.m3u8?token=abc"],
            "variables are substituted")
        #expect(multivariant.variants.map(\.bandwidth) == [1_280_000, 2_560_000])
        #expect(multivariant.variants[0].averageBandwidth == 1_000_000 && multivariant.variants[0].frameRate == 29.97)
        #expect(multivariant.variants[0].codecs == "avc1.64001e,mp4a.40.2" && multivariant.variants[0].resolution == "640x360")
        #expect(multivariant.variants[1].closedCaptions == "NONE")
        let audio = multivariant.renditions(ofGroup: multivariant.variants[0].audio)
        #expect(audio.map(\.language) == ["en", "de"] && audio.map(\.isDefault) == [true, false])
        #expect(multivariant.renditions.first { $0.type == .closedCaptions }?.uri == nil)
        #expect(multivariant.renditions.first { $0.type == .subtitles }?.uri == "subs/en.m3u8")
        #expect(multivariant.iFrameVariants.map(\.uri) == ["video/360p-iframes.m3u8"])
        #expect(multivariant.sessionKeys.map(\.uri) == ["keys/session.bin"])
        #expect(multivariant.start == StartPoint(timeOffset: -12.5, isPrecise: true))
        #expect(multivariant.hasIndependentSegments)
    }

    @Test func aLivePlaylistIsNotFinished() throws {
        let live = try MediaPlaylist(
            try Playlist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:2,\ns7.ts\n"))
        #expect(!live.isFinished && live.segments.map(\.mediaSequence) == [7])
        let event = try MediaPlaylist(try Playlist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n"))
        #expect(!event.isFinished && event.playlistType == .event)
    }

    @Test(
        arguments: [
            ("#EXTM3U\n#EXTINF:2,\ns.ts", 1, "EXT-X-TARGETDURATION", "needs a target duration"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\ns.ts", 3, nil, "has no EXTINF"),
            (
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n#EXT-X-BYTERANGE:100\ns.ts", 5, "EXT-X-BYTERANGE",
                "must follow a range of the same resource"
            ),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128\n", 3, "EXT-X-KEY", "URI is missing"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:99999999999999999999\n", 2, "EXT-X-TARGETDURATION", "not a whole number in range"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n", 3, "EXT-X-MAP", "URI is missing"),
            (
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n#EXT-X-BYTERANGE:10@9223372036854775807\ns.ts", 4, "EXT-X-BYTERANGE",
                "not a byte range"
            ),
        ] as [(String, Int, String?, String)])
    func malformedMediaPlaylistsAreRefusedPrecisely(_ text: String, _ line: Int, _ tag: String?, _ reason: String) throws {
        let playlist = try Playlist(parsing: text)
        do throws(PlaylistError) {
            _ = try MediaPlaylist(playlist)
            Issue.record("\(text.debugDescription) was read")
        } catch {
            #expect(error.line == line && error.tag == tag, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func malformedMultivariantPlaylistsAreRefusedPrecisely() throws {
        let noBandwidth = try Playlist(parsing: "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"avc1\"\nv.m3u8\n")
        #expect(throws: PlaylistError(line: 2, tag: "EXT-X-STREAM-INF", reason: "BANDWIDTH is missing")) {
            try MultivariantPlaylist(noBandwidth)
        }
        let unknownType = try Playlist(
            parsing: "#EXTM3U\n#EXT-X-MEDIA:TYPE=HOLOGRAM,GROUP-ID=\"h\",NAME=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n")
        #expect(try MultivariantPlaylist(unknownType).renditions.isEmpty, "an unknown TYPE is ignored, as clients must")
        #expect(throws: PlaylistError.self) { try MediaPlaylist(unknownType) }
        #expect(throws: PlaylistError.self) { try MultivariantPlaylist(try Playlist(parsing: PlaylistCorpus.media)) }
    }
}

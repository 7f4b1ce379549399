import Foundation
import Testing
@testable import MediaCacheHLS

@Suite(.timeLimit(.minutes(2))) struct PlaylistRewriterTests {
    /// Routes every http(s) URL to `/proxy/<absolute URL>`, nothing else.
    func route(_ url: URL) -> String? {
        ["http", "https"].contains(url.scheme ?? "") ? "/proxy/" + url.absoluteString : nil
    }

    @Test func variableReferencesStayForThePlayerWhereverTheyStand() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-DEFINE:IMPORT="path"
            #EXT-X-DEFINE:NAME="host",VALUE="https://other.example"
            #EXT-X-MAP:URI="{$path}/init.mp4?token={$token}"
            #EXTINF:4,
            media/{$path}/seg0.m4s?token={$token}
            #EXTINF:4,
            https://{$edge}.example/seg1.m4s
            #EXTINF:4,
            {$host}/seg2.m4s
            #EXTINF:4,
            {$imported}/seg3.m4s

            """
        let base = URL(string: "https://origin.example/v/index.m3u8?token=s3cret")!
        let rewritten = PlaylistRewriter.rewritten(try Playlist(parsing: text), base: base, route: route).text
        for expected in [
            // Relative or absolute, the player tells once it substituted: as it is, it resolves
            // against the proxied playlist when relative.
            "#EXT-X-MAP:URI=\"{$path}/init.mp4?token={$token}\"",
            "\n/proxy/https://origin.example/v/media/{$path}/seg0.m4s?token={$token}\n",
            "\n/proxy/https://{$edge}.example/seg1.m4s\n",
            "\n/proxy/https://other.example/seg2.m4s\n",
            "\n{$imported}/seg3.m4s\n",
            "#EXT-X-DEFINE:QUERYPARAM=\"token\"\n#EXT-X-DEFINE:IMPORT=\"path\"",
        ] {
            #expect(rewritten.contains(expected), "\(expected) in\n\(rewritten)")
        }
    }

    @Test func aQueryParameterDefinesItsVariableForThePlaylistsOwnReading() throws {
        let playlist = try Playlist(parsing: "#EXTM3U\n#EXT-X-DEFINE:QUERYPARAM=\"t\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n")
        let variables = PlaylistRewriter.definitions(in: playlist, base: URL(string: "https://o.example/p.m3u8?t=abc&u=2"))
        #expect(variables == ["t": "abc", "a": "1"])
    }

    @Test func everyURIAPlayerFollowsIsRoutedAndResolvedAgainstThePlaylist() throws {
        let base = URL(string: "https://origin.example/v/master.m3u8?sig=1")!
        let rewritten = PlaylistRewriter.rewritten(try Playlist(parsing: PlaylistCorpus.multivariant), base: base, route: route)
        let text = rewritten.text
        for expected in [
            "URI=\"/proxy/https://origin.example/v/keys/session.bin\"",
            "URI=\"/proxy/https://origin.example/v/meta/title.json\"",
            "SERVER-URI=\"/proxy/https://origin.example/steering?video=1\"",
            "URI=\"/proxy/https://origin.example/v/audio/en/index.m3u8\"",
            "URI=\"/proxy/https://origin.example/v/audio/de/index.m3u8\"",
            "URI=\"/proxy/https://origin.example/v/subs/en.m3u8\"",
            "\n/proxy/https://origin.example/v/video/360p.m3u8\n",
            "\n/proxy/https://cdn.example/video/720p.m3u8?token=abc\n",
            "URI=\"/proxy/https://origin.example/v/video/360p-iframes.m3u8\"",
        ] {
            #expect(text.contains(expected), "\(expected) in\n\(text)")
        }
        #expect(
            rewritten.tags(named: "EXT-X-STREAM-INF")
                == (try Playlist(parsing: PlaylistCorpus.multivariant)).tags(named: "EXT-X-STREAM-INF"),
            "every variant is kept as it was")
        #expect(rewritten.lines.count == (try Playlist(parsing: PlaylistCorpus.multivariant)).lines.count)
    }

    @Test func mediaPlaylistURIsAbsoluteRelativeAndRootRelativeAllRoute() throws {
        let base = URL(string: "http://origin.example/hls/720p/index.m3u8")!
        let text = PlaylistRewriter.rewritten(try Playlist(parsing: PlaylistCorpus.media), base: base, route: route).text
        for expected in [
            "#EXT-X-MAP:URI=\"/proxy/http://origin.example/hls/720p/init.mp4\",BYTERANGE=\"720@0\"",
            "URI=\"/proxy/https://keys.example/k1.bin\"",
            "\n/proxy/http://origin.example/hls/720p/media.mp4\n",
            "\n/proxy/http://origin.example/root/relative/seg3.m4s\n",
            "URI=\"/proxy/http://origin.example/hls/720p/part4.0.m4s\"",
            "URI=\"/proxy/http://origin.example/hls/720p/part4.1.m4s\"",
            "URI=\"/proxy/http://origin.example/hls/720p/index.m3u8\"",
            "#EXT-X-KEY:METHOD=NONE\n",
        ] {
            #expect(text.contains(expected), "\(expected) in\n\(text)")
        }
    }

    @Test func urisTheRouteRefusesOrThatDoNotResolveStayAsTheyAre() throws {
        let playlist = try Playlist(
            parsing: """
                #EXTM3U
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-id",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXTINF:4,
                {$undefined}/seg.ts
                """)
        let rewritten = PlaylistRewriter.rewritten(playlist, base: URL(string: "https://o.example/a.m3u8")!, route: route)
        #expect(rewritten == playlist)
    }
}

/// Offline, a downloaded multivariant playlist lists only what was downloaded.
@Suite(.timeLimit(.minutes(2))) struct PlaylistRestrictionTests {
    @Test func variantsAndRenditionsNotKeptAreLeftOut() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="de",URI="de.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="cc",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=5000000,AUDIO="a"
            1080.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"
            360.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="iframes.m3u8"

            """
        let playlist = try Playlist(parsing: Data(text.utf8))
        let base = URL(string: "https://cdn.test/film/master.m3u8")!
        let kept: Set<String> = ["360.m3u8", "en.m3u8"]
        let restricted = PlaylistRestriction.restricted(playlist, base: base) { kept.contains($0.lastPathComponent) }
        #expect(
            restricted.text == """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="en.m3u8"
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="cc",INSTREAM-ID="CC1"
                #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"
                360.m3u8

                """)
        #expect(PlaylistRestriction.restricted(playlist, base: base) { _ in false } == playlist, "nothing kept: as it was")
    }

    @Test func aVariantNamesOnlyGroupsThatAreLeft() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="de",URI="de.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="fr",URI="fr.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="cc",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a",SUBTITLES="s",CLOSED-CAPTIONS="cc"
            360.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO="a",SUBTITLES="s",CLOSED-CAPTIONS=NONE
            480.m3u8

            """
        let playlist = try Playlist(parsing: Data(text.utf8))
        let base = URL(string: "https://cdn.test/film/master.m3u8")!
        let kept: Set<String> = ["360.m3u8", "480.m3u8"]
        let restricted = PlaylistRestriction.restricted(playlist, base: base) { kept.contains($0.lastPathComponent) }
        #expect(
            restricted.text == """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="cc",INSTREAM-ID="CC1"
                #EXT-X-STREAM-INF:BANDWIDTH=800000,CLOSED-CAPTIONS="cc"
                360.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=900000,CLOSED-CAPTIONS=NONE
                480.m3u8

                """, "no audio or subtitles group is left to name; closed captions are in the video")
    }
}

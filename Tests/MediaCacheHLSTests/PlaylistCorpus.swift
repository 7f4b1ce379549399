/// Hand-written playlists covering every tag the model knows, as real servers write them.
enum PlaylistCorpus {
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example"
        #EXT-X-SESSION-KEY:METHOD=AES-128,URI="keys/session.bin",IV=0x00000000000000000000000000000001
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",URI="meta/title.json",LANGUAGE="en"
        #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=1",PATHWAY-ID="CDN-A"
        #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en/index.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",URI="audio/de/index.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",FORCED=NO,URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970,AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS="cc"
        video/360p.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aud",SUBTITLES="subs",CLOSED-CAPTIONS=NONE
        {$cdn}/video/720p.m3u8?token=abc
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.64001e",RESOLUTION=640x360,URI="video/360p-iframes.m3u8"
        # a comment that stays
        #EXT-X-UNKNOWN-VENDOR-TAG:FOO=bar,BAZ="q"

        """

    static let media = """
        #EXTM3U\r
        #EXT-X-VERSION:7\r
        #EXT-X-TARGETDURATION:4\r
        #EXT-X-MEDIA-SEQUENCE:120\r
        #EXT-X-DISCONTINUITY-SEQUENCE:3\r
        #EXT-X-PLAYLIST-TYPE:VOD\r
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0\r
        #EXT-X-PART-INF:PART-TARGET=1.0\r
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"\r
        #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k1.bin",IV=0x1f2e3d4c5b6a79880000000000000001\r
        #EXT-X-PROGRAM-DATE-TIME:2026-11-22T06:51:47.376+00:00\r
        #EXTINF:4.000,first segment\r
        #EXT-X-BYTERANGE:75232@720\r
        media.mp4   \r
        #EXTINF:4.000,\r
        #EXT-X-BYTERANGE:82112\r
        media.mp4\r
        \r
        #EXT-X-DISCONTINUITY\r
        #EXT-X-KEY:METHOD=NONE\r
        #EXT-X-GAP\r
        #EXTINF:3.5,\r
        /root/relative/seg3.m4s\r
        #EXT-X-PART:DURATION=1.0,URI="part4.0.m4s",INDEPENDENT=YES\r
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part4.1.m4s"\r
        #EXT-X-RENDITION-REPORT:URI="../720p/index.m3u8",LAST-MSN=123,LAST-PART=0\r
        #EXT-X-SKIP:SKIPPED-SEGMENTS=0\r
        #EXT-X-DATERANGE:ID="ad-1",START-DATE="2026-11-22T06:52:00.000Z",DURATION=30.0\r
        #EXT-X-ENDLIST\r

        """
}

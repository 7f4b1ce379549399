import Foundation
import Testing
@testable import MediaCacheHLS

@Suite(.timeLimit(.minutes(2))) struct PlaylistParserTests {
    @Test func aMultivariantPlaylistKeepsEveryTagInPlace() throws {
        let playlist = try Playlist(parsing: PlaylistCorpus.multivariant)
        #expect(playlist.isMultivariant)
        let variants = playlist.tags(named: "EXT-X-STREAM-INF")
        #expect(variants.map { $0.attributes?["BANDWIDTH"] } == ["1280000", "2560000"])
        #expect(variants.first?.attributes?["CODECS"] == "avc1.64001e,mp4a.40.2", "commas inside quotes")
        #expect(playlist.tags(named: "EXT-X-MEDIA").count == 4)
        #expect(playlist.tags(named: "EXT-X-UNKNOWN-VENDOR-TAG").first?.value == .text(#"FOO=bar,BAZ="q""#))
        #expect(playlist.lines.contains(.comment(" a comment that stays")))
        #expect(playlist.lines.contains(.uri("{$cdn}/video/720p.m3u8?token=abc")))
        #expect(try Playlist(parsing: playlist.text) == playlist)
    }

    @Test func aMediaPlaylistWithCRLFAndTrailingSpacesParses() throws {
        let playlist = try Playlist(parsing: PlaylistCorpus.media)
        #expect(!playlist.isMultivariant)
        #expect(playlist.lines.filter { $0 == .uri("media.mp4") }.count == 2, "CR LF and trailing spaces are dropped")
        #expect(playlist.tags(named: "EXT-X-KEY").first?.attributes?["IV"] == "0x1f2e3d4c5b6a79880000000000000001")
        #expect(playlist.tags(named: "EXT-X-MAP").first?.attributes?["BYTERANGE"] == "720@0")
        #expect(playlist.tags(named: "EXTINF").first?.value == .text("4.000,first segment"))
        #expect(playlist.tags(named: "EXT-X-ENDLIST") == [Tag("EXT-X-ENDLIST")])
        #expect(playlist.lines.contains(.blank))
        let written = playlist.text
        #expect(!written.contains("\r"))
        #expect(try Playlist(parsing: written) == playlist)
    }

    @Test(
        arguments: [
            ("", 1, nil, "starts with #EXTM3U"),
            ("\u{0}\u{1}binary garbage", 1, nil, "starts with #EXTM3U"),
            ("#EXTM3U\n\nseg\u{7}.ts", 3, nil, "control character U+0007"),
        ] as [(String, Int, String?, String)])
    func whatIsNoPlaylistTextIsRefusedWithTheLineAndTheReason(_ text: String, _ line: Int, _ tag: String?, _ reason: String) {
        do throws(PlaylistError) {
            _ = try Playlist(parsing: text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            #expect(error.line == line)
            #expect(error.tag == tag)
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    /// As players do, a tag whose value cannot be read is kept as its text and written back
    /// byte for byte; the typed readers name what is wrong with it.
    @Test(
        arguments: [
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin", "EXT-X-KEY", "does not end"),
            ("#EXT-X-MAP:URI", "EXT-X-MAP", "has no value"),
            ("#EXT-X-TARGETDURATION:four", "EXT-X-TARGETDURATION", "not a whole number"),
            ("#EXT-X-TARGETDURATION:", "EXT-X-TARGETDURATION", "not a whole number"),
            ("#EXT-X-MEDIA-SEQUENCE:-3", "EXT-X-MEDIA-SEQUENCE", "not a whole number"),
            ("#EXT-X-MEDIA-SEQUENCE:99999999999999999999999", "EXT-X-MEDIA-SEQUENCE", "not a whole number"),
            ("#EXTINF:abc,", "EXTINF", "not a number"),
            ("#EXT-X-BYTERANGE:10@20@30", "EXT-X-BYTERANGE", "not a byte range"),
            ("#EXT-X-PLAYLIST-TYPE:LIVE", nil, nil),
        ] as [(String, String?, String?)])
    func aTagThatCannotBeReadIsKeptAsItsText(_ line: String, _ tag: String?, _ reason: String?) throws {
        let targetDuration = line.hasPrefix("#EXT-X-TARGETDURATION") ? "" : "#EXT-X-TARGETDURATION:4\n"
        let text = "#EXTM3U\n\(targetDuration)\(line)\n#EXTINF:4,\nseg.ts\n"
        let playlist = try Playlist(parsing: text)
        #expect(playlist.text == text, "written back byte for byte")
        do throws(PlaylistError) {
            _ = try MediaPlaylist(playlist)
            #expect(reason == nil, "the media playlist reader accepted \(line)")
        } catch {
            #expect(error.line == (targetDuration.isEmpty ? 2 : 3) && error.tag == tag, "\(error)")
            #expect(reason.map { error.reason.contains($0) } ?? false, "\(error)")
        }
    }

    @Test func aRenditionThatCannotBeReadIsKeptAndNamedByTheMultivariantReader() throws {
        let text = "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,,NAME=\"a\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        let playlist = try Playlist(parsing: text)
        #expect(playlist.text == text)
        #expect(throws: PlaylistError(line: 2, tag: "EXT-X-MEDIA", reason: "',NAME' is not an attribute name (letters, digits and -)")) {
            try MultivariantPlaylist(playlist)
        }
    }

    @Test func aVariantWithoutItsURILineIsKeptAndLeftOutOfTheVariants() throws {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv.m3u8\n"
        let playlist = try Playlist(parsing: text)
        #expect(playlist.text == text)
        #expect(try MultivariantPlaylist(playlist).variants.map(\.bandwidth) == [2])
    }

    @Test func anOverlongLineAndNonUTF8AreRefusedWithoutBufferingThem() {
        let long = "#EXTM3U\n#EXTINF:4,\n" + String(repeating: "a", count: 1 << 20) + ".ts\n"
        #expect(throws: PlaylistError(line: 3, tag: nil, reason: "the line is longer than 65536 bytes")) { try Playlist(parsing: long) }
        #expect(throws: PlaylistError(line: 3, tag: nil, reason: "the line is not UTF-8 text")) {
            try Playlist(parsing: Data("#EXTM3U\n#EXTINF:4,\nseg".utf8) + Data([0xFF, 0xFE]) + Data(".ts\n".utf8))
        }
        #expect(throws: PlaylistError(line: 1, tag: nil, reason: "a playlist starts with #EXTM3U")) {
            try Playlist(parsing: Data([0x23, 0x45, 0xFF, 0xFE, 0x00]))
        }
    }

    @Test func aByteOrderMarkAndLowerCaseNamesAreTolerated() throws {
        let playlist = try Playlist(parsing: Data("\u{FEFF}#EXTM3U\n#EXT-X-KEY:method=AES-128, uri=\"k\",\n".utf8))
        #expect(playlist.tags(named: "EXT-X-KEY").first?.attributes?["uri"] == "k")
    }
}

import Foundation
import MediaCache
import MediaCacheHLS
import Testing

/// The download state machine and the selection, without I/O.
@Suite(.timeLimit(.minutes(2))) struct DownloadStateTests {
    @Test func theAllowedMoves() throws {
        #expect(try DownloadState.queued.started() == .downloading)
        #expect(try DownloadState.downloading.finished() == .completed)
        #expect(try DownloadState.downloading.failed("segment3.ts: 404") == .failed("segment3.ts: 404"))
        #expect(try DownloadState.downloading.paused() == .paused)
        #expect(try DownloadState.queued.paused() == .paused)
        #expect(try DownloadState.paused.resumed() == .queued)
        #expect(try DownloadState.failed("x").resumed() == .queued, "a failed download resumes where it stopped")
        #expect(DownloadState.completed.extended() == .queued, "new selections queue a finished download again")
        #expect(DownloadState.paused.extended() == .paused)
        #expect(DownloadState.downloading.relaunched() == .queued, "a download running when the process died resumes")
        #expect(DownloadState.paused.relaunched() == .paused)
    }

    @Test func theRefusedMovesSayWhy() {
        #expect(throws: DownloadState.InvalidMove.self) { try DownloadState.paused.started() }
        #expect(throws: DownloadState.InvalidMove.self) { try DownloadState.completed.paused() }
        #expect(throws: DownloadState.InvalidMove.self) { try DownloadState.completed.resumed() }
        #expect(throws: DownloadState.InvalidMove.self) { try DownloadState.queued.finished() }
        do {
            _ = try DownloadState.completed.resumed()
        } catch {
            #expect(error.description == "cannot resume a download that is completed")
        }
    }

    @Test func statesRoundTripThroughTheirNames() {
        for state in [DownloadState.queued, .downloading, .paused, .completed, .failed("disk full")] {
            #expect(DownloadState(name: state.name, error: state.error) == state)
        }
        #expect(DownloadState(name: "exploded", error: nil) == nil)
    }

    @Test func selectionsParseFromTheirText() {
        #expect(DownloadSelection.Variant("highest") == .highest)
        #expect(DownloadSelection.Variant("3000000") == .maximumBandwidth(3_000_000))
        #expect(DownloadSelection.Variant("1280x720") == .maximumResolution(width: 1280, height: 720))
        #expect(DownloadSelection.Variant("fast") == nil)
        #expect(DownloadSelection.Renditions("en,de") == .languages(["en", "de"]))
        #expect(DownloadSelection.Renditions("ALL") == .all)
        #expect(DownloadSelection.Renditions("en;rm -rf") == nil)
    }

    @Test func aSelectionResolvesAgainstTheMultivariantPlaylist() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Deutsch",LANGUAGE="de",URI="de.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="subs-en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Français",LANGUAGE="fr",URI="subs-fr.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,AUDIO="a",SUBTITLES="s"
            360.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080,AUDIO="a",SUBTITLES="s"
            1080.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,AUDIO="a",SUBTITLES="s"
            720.m3u8

            """
        let multivariant = try MultivariantPlaylist(try Playlist(parsing: Data(text.utf8)))
        let base = URL(string: "https://cdn.test/film/master.m3u8")!
        func names(_ selection: DownloadSelection) throws -> [String] {
            try selection.resolve(in: multivariant, base: base).playlists.map(\.url.lastPathComponent)
        }
        #expect(try names(DownloadSelection()) == ["1080.m3u8", "en.m3u8"], "highest, default audio, no subtitles")
        #expect(try names(DownloadSelection(variant: .lowest, audio: .none)) == ["360.m3u8"])
        #expect(
            try names(DownloadSelection(variant: .maximumBandwidth(3_000_000), audio: .all, subtitles: .default))
                == ["720.m3u8", "de.m3u8", "en.m3u8", "subs-en.m3u8"])
        #expect(
            try names(
                DownloadSelection(
                    variant: .maximumResolution(width: 1280, height: 720), audio: .languages(["DE"]),
                    subtitles: .languages(["fr"]))) == ["720.m3u8", "de.m3u8", "subs-fr.m3u8"])
        let resolved = try DownloadSelection(variant: .lowest).resolve(in: multivariant, base: base)
        #expect(resolved.variant?.bandwidth == 800_000 && resolved.variant?.resolution == "640x360")

        // What the presentation does not have is refused, with what it has.
        func refusal(_ selection: DownloadSelection) -> String? {
            do {
                _ = try selection.resolve(in: multivariant, base: base)
                return nil
            } catch {
                return (error as? DownloadSelectionError)?.description
            }
        }
        #expect(
            refusal(DownloadSelection(audio: .languages(["de", "fr"])))
                == "the presentation has no audio in fr; it has: de, en")
        #expect(refusal(DownloadSelection(subtitles: .languages(["it"]))) == "the presentation has no subtitles in it; it has: en, fr")
        #expect(
            refusal(DownloadSelection(variant: .maximumBandwidth(500_000)))
                == "the presentation has no variant within 500000 bit/s; it has: 640x360 at 800000 bit/s, "
                + "1280x720 at 2500000 bit/s, 1920x1080 at 5000000 bit/s")
        #expect(
            refusal(DownloadSelection(variant: .maximumResolution(width: 320, height: 240)))?
                .hasPrefix("the presentation has no variant within 320x240; it has: 640x360 at 800000 bit/s") == true)
        #expect(throws: DownloadSelectionError.self) { try DownloadSelection(audio: .languages(["en"])).checkAlone() }
        #expect(throws: Never.self) { try DownloadSelection(variant: .lowest, audio: .all).checkAlone() }
    }
}

import Foundation
import MediaCache
import MediaCacheServer
import MediaCacheTesting
import Testing

/// Pages of the web origins a proxy allows read its answers (CORS); pages of any other origin
/// cannot.
@Suite(.timeLimit(.minutes(3))) struct CORSTests {
    @Test func anAllowedPageGetsTheFieldsOnEveryKindOfAnswerAndOthersNone() async throws {
        let page = "http://127.0.0.1:9"
        try await ProxyHarness.run(configure: { $0.cors = try? CORSAllowList([page]) }) { proxy in
            proxy.origin.serve("/v/clip.mp4", content: .pattern(length: 100_000, seed: 3))
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nclip.mp4\n#EXT-X-ENDLIST\n"
            proxy.origin.serve("/v/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
            let fromPage = [("Origin", page), ("Range", "bytes=0-99")]
            let miss = try await proxy.request(proxy.proxied("/v/clip.mp4"), headers: fromPage)
            let hit = try await proxy.request(proxy.proxied("/v/clip.mp4"), headers: fromPage)
            let list = try await proxy.request(proxy.proxied("/v/index.m3u8"), headers: [("Origin", page)])
            let refused = try await proxy.request(proxy.local("api/nothing"), headers: [("Origin", page)])
            for (name, answer) in [("miss", miss), ("hit", hit), ("playlist", list), ("404", refused)] {
                #expect(answer.headers["access-control-allow-origin"] == page, "\(name)")
                #expect(answer.headers["access-control-expose-headers"]?.contains("Content-Range") == true, "\(name)")
            }
            #expect(hit.status == 206 && hit.headers["content-range"] == "bytes 0-99/100000")

            let preflight = try await proxy.request(
                proxy.proxied("/v/index.m3u8"), method: .OPTIONS,
                headers: [
                    ("Origin", page), ("Access-Control-Request-Method", "GET"), ("Access-Control-Request-Headers", "range"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == page)
            #expect(preflight.headers["access-control-allow-headers"]?.contains("Range") == true)

            let stranger = [("Origin", "http://127.0.0.1:10")]
            let other = try await proxy.request(proxy.proxied("/v/clip.mp4"), headers: stranger)
            #expect(other.status == 200 && other.headers["access-control-allow-origin"] == nil, "answered, not readable by its page")
            let otherPreflight = try await proxy.request(
                proxy.proxied("/v/clip.mp4"), method: .OPTIONS,
                headers: stranger + [("Access-Control-Request-Method", "GET")])
            #expect(otherPreflight.status == 405 && otherPreflight.headers["access-control-allow-origin"] == nil)
        }
    }

}

/// A JavaScript player in headless Chromium, on a page of another origin than the proxy's.
@Suite(.timeLimit(.minutes(3))) struct BrowserPlayerTests {
    @Test func videoJSOnAnAllowedPagePlaysHLSAndReadsAnMP4WhileAnotherPageIsRefused() async throws {
        let chromium = try Tools.require("chromium")
        let videoJS = try await Tools.videoJS()
        let pages = try await TestOrigin.start()
        let strangers = try await TestOrigin.start()
        defer {
            Task {
                try? await pages.stop()
                try? await strangers.stop()
            }
        }
        let pageOrigin = "http://127.0.0.1:\(pages.port)"
        try await ProxyHarness.run(configure: { $0.cors = try? CORSAllowList([pageOrigin]) }) { proxy in
            let files = try await TestHLS(.ts, seconds: 6).make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let mp4 = try await TestMedia.faststartMP4(seconds: 2).make(in: proxy.directory.path)
            proxy.origin.serve("/media/clip.mp4", content: .data(mp4, mimeType: "video/mp4"))
            let hls = proxy.proxied("/hls/index.m3u8"), clip = proxy.proxied("/media/clip.mp4")

            // Video.js plays the stream with its own HLS engine (fetching every playlist and
            // segment from script), then the page reads an MP4's first bytes and their range.
            let page = """
                <!doctype html><script src="/video.js"></script>
                <video id="v" class="video-js" muted crossorigin="anonymous"></video>
                <script>
                const report = (what) => fetch('/report/' + what);
                // `hls` is VHS's option in Video.js 7.5, `vhs` in later versions: never the browser's own HLS.
                const engine = { overrideNative: true };
                const player = videojs('v', { html5: { hls: engine, vhs: engine, nativeAudioTracks: false, nativeVideoTracks: false } });
                player.muted(true);
                player.src({ src: '\(hls)', type: 'application/x-mpegURL' });
                player.play();
                let reported = false;
                player.on('timeupdate', async () => {
                  if (reported || player.currentTime() < 1) return;
                  reported = true;
                  const tech = player.tech({ IWillNotUseThisInPlugins: true });
                  if (!(tech.hls || tech.vhs)) return report('native');
                  try {
                    const answer = await fetch('\(clip)', { headers: { Range: 'bytes=0-99' } });
                    const body = await answer.arrayBuffer();
                    const range = answer.headers.get('Content-Range') ? 'exposed' : 'hidden';
                    report('played-' + answer.status + '-' + body.byteLength + '-' + range);
                  } catch (error) { return report('mp4-refused'); }
                  // Then the MP4 itself, in the same player: a CORS-mode media load (crossorigin).
                  player.src({ src: '\(clip)', type: 'video/mp4' });
                  player.one('loadedmetadata', () => {
                    player.on('timeupdate', () => { if (player.currentTime() > 0.5) report('mp4-played'); });
                    player.play();
                  });
                });
                player.on('error', () => report('hls-error-' + (player.error() && player.error().code)));
                </script>
                """
            pages.serve("/page.html", content: .data(Data(page.utf8), mimeType: "text/html"))
            pages.serve("/video.js", content: .data(videoJS, mimeType: "text/javascript"))
            let stranger = """
                <!doctype html><script>
                fetch('\(hls)').then(answer => answer.text()).then(() => fetch('/report/read'), () => fetch('/report/refused'));
                </script>
                """
            strangers.serve("/page.html", content: .data(Data(stranger.utf8), mimeType: "text/html"))

            func reports(of origin: TestOrigin, _ url: String, among names: [String]) async throws -> [String] {
                let profile = proxy.directory.appending("profile-\(origin.port)")
                let browser = try ChildProcess.spawn(
                    path: chromium, ChromiumTests.options + ["--user-data-dir=\(profile)", url],
                    capturingOutput: false)
                defer {
                    browser.send(SIGTERM)
                    browser.waitForExit()
                }
                let deadline = ContinuousClock.now + .seconds(90)
                var seen: [String] = []
                while seen.isEmpty, ContinuousClock.now < deadline, browser.isRunning {
                    try await Task.sleep(for: .milliseconds(100))
                    seen = names.filter { !origin.requests(for: "/report/" + $0).isEmpty }
                }
                return seen
            }
            let played = try await reports(
                of: pages, pages.url("/page.html").absoluteString,
                among: ["mp4-played", "mp4-refused", "native", "hls-error-2", "hls-error-3", "hls-error-4"])
            #expect(played == ["mp4-played"], "Video.js on the allowed page played HLS, then the MP4: \(played)")
            #expect(!pages.requests(for: "/report/played-206-100-exposed").isEmpty, "the page read the MP4's range and its Content-Range")
            #expect(proxy.origin.requests(for: "/hls/segment0.ts").count == 1, "the stream came through the proxy")
            let refused = try await reports(of: strangers, strangers.url("/page.html").absoluteString, among: ["read", "refused"])
            #expect(refused == ["refused"], "a page of another origin cannot read the proxy's answers: \(refused)")
        }
    }
}

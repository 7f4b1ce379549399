import Foundation
import MediaCacheTesting
import Testing

/// Headless Chromium as the player and as the reader of the status page. A missing Chromium
/// fails the tests.
@Suite(.timeLimit(.minutes(3))) struct ChromiumTests {
    static let options = [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--mute-audio",
        "--autoplay-policy=no-user-gesture-required",
    ]

    @Test func aVideoElementPlaysThroughTheProxyToItsEndAndTheStatusPageListsIt() async throws {
        let chromium = try Tools.require("chromium")
        try await ProxyHarness.run { proxy in
            let video = try await TestMedia.webm(seconds: 3).make(in: proxy.directory.path)
            proxy.origin.serve("/media/clip.webm", content: .data(video, mimeType: "video/webm"))
            // The page comes from the origin and reports the video's end (or error) back to it.
            let page = """
                <!doctype html><video id="v" muted autoplay src="\(proxy.proxied("/media/clip.webm"))"></video>
                <script>
                const v = document.getElementById('v');
                v.onended = () => fetch('/report/ended?at=' + v.currentTime);
                v.onerror = () => fetch('/report/error?code=' + (v.error && v.error.code));
                </script>
                """
            proxy.origin.serve("/page.html", content: .data(Data(page.utf8), mimeType: "text/html"))

            let profile = proxy.directory.appending("profile")
            let browser = try ChildProcess.spawn(
                path: chromium,
                Self.options + [
                    "--user-data-dir=\(profile)",
                    proxy.origin.url("/page.html").absoluteString,
                ],
                capturingOutput: false)
            defer {
                browser.send(SIGTERM)
                browser.waitForExit()
            }
            let deadline = ContinuousClock.now + .seconds(90)
            var reports: [String] = []
            while reports.isEmpty, ContinuousClock.now < deadline, browser.isRunning {
                try await Task.sleep(for: .milliseconds(100))
                reports = ["/report/ended", "/report/error"].filter { !proxy.origin.requests(for: $0).isEmpty }
            }
            browser.send(SIGTERM)
            #expect(reports == ["/report/ended"], "Chromium's report: \(reports)")
            let entry = try #require(try proxy.store.entries().first { $0.url.hasSuffix("/media/clip.webm") })
            #expect(entry.cachedBytes == Int64(video.count), "the whole video is cached after playing it")

            let dom = try await CommandRun.run(
                path: "/usr/bin/timeout",
                ["60", chromium] + Self.options + [
                    "--user-data-dir=\(profile)-dom", "--dump-dom", proxy.local(""),
                ])
            #expect(dom.status == 0, "chromium --dump-dom: \(dom.errorOutput)")
            #expect(dom.output.contains(#"<tr class="entry" data-key="\#(entry.key.rawValue)">"#))
            #expect(dom.output.contains(">clip.webm<"))
            #expect(dom.output.contains(#"data-kind="video""#))
        }
    }
}

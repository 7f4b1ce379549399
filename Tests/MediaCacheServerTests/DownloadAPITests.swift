import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `/api/downloads` and the status page's Downloads section.
@Suite(.timeLimit(.minutes(2))) struct DownloadAPITests {
    @Test func aDownloadIsStartedFollowedShownAndRemovedThroughTheAPI() async throws {
        try await ProxyHarness.run { proxy in
            let files = try await TestHLS(.multivariant, seconds: 6).make(in: proxy.directory.path)
            for (path, data) in files { proxy.origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path))) }
            let master = proxy.origin.url("/hls/master.m3u8").absoluteString
            let decoder = APIJSON.decoder()

            let bad = try await proxy.request(
                proxy.local("api/downloads"), method: .POST,
                body: APIJSON.encoder().encode(DownloadRequest(url: master, variant: "fast")))
            #expect(bad.status == 400 && String(decoding: bad.body, as: UTF8.self).contains("variant"))
            let absent = try await proxy.request(
                proxy.local("api/downloads"), method: .POST,
                body: APIJSON.encoder().encode(DownloadRequest(url: master, subtitles: "fr")))
            #expect(absent.status == 400)
            #expect(String(decoding: absent.body, as: UTF8.self).hasPrefix("the presentation has no subtitles in fr; it has: "))

            let request = DownloadRequest(url: master, title: "Film", audio: "en,de", subtitles: "default")
            let started = try await proxy.request(proxy.local("api/downloads"), method: .POST, body: APIJSON.encoder().encode(request))
            #expect(started.status == 200)
            let id = try decoder.decode(DownloadReport.self, from: started.body).id
            var report: DownloadReport?
            for _ in 0..<300 where report?.state != "completed" {
                report = try decoder.decode(DownloadReport.self, from: try await proxy.request(proxy.local("api/downloads/\(id)")).body)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(report?.state == "completed" && report?.title == "Film")
            #expect(report?.selection.audio.compactMap(\.language) == ["en", "de"], "both languages")
            #expect(report?.selection.subtitles.isEmpty == true, "no subtitle rendition is marked default")

            let page = String(decoding: try await proxy.request(proxy.local("")).body, as: UTF8.self)
            #expect(page.contains("<h2>Downloads</h2>") && page.contains(">Film</td>") && page.contains(#"data-action="remove""#))

            let pause = try await proxy.request(proxy.local("api/downloads/\(id)/pause"), method: .POST)
            #expect(pause.status == 409 && String(decoding: pause.body, as: UTF8.self).contains("completed"))
            #expect(try await proxy.request(proxy.local("api/downloads/nothing")).status == 404)
            let removed = try await proxy.request(proxy.local("api/downloads/\(id)"), method: .DELETE)
            let removal = try decoder.decode(RemovalReport.self, from: removed.body)
            #expect(removed.status == 200 && !removal.removed.isEmpty)
            #expect(try decoder.decode([DownloadReport].self, from: try await proxy.request(proxy.local("api/downloads")).body).isEmpty)
        }
    }
}

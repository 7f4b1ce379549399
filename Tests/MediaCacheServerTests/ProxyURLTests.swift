import Foundation
import MediaCacheServer
import Testing

@Suite struct ProxyURLTests {
    let proxy = ProxyURL(host: "127.0.0.1", port: 8080)

    @Test(arguments: [
        "https://cdn.example/v/clip.mp4",
        "http://cdn.example:8081/a%20b/clip.mp4?token=a%2Fb&x=1",
        "https://[::1]:9000/live/index.m3u8",
    ])
    func roundTripsAndKeepsTheFileNameLast(_ text: String) throws {
        let origin = try #require(URL(string: text))
        let proxied = try #require(proxy.url(for: origin))
        #expect(proxied.absoluteString.hasPrefix("http://127.0.0.1:8080/"))
        #expect(proxied.lastPathComponent == origin.lastPathComponent)
        let target = proxied.absoluteString.dropFirst("http://127.0.0.1:8080".count)
        #expect(try ProxyURL.origin(forTarget: String(target)).absoluteString == origin.absoluteString)
    }

    @Test func aURLWithoutAPathRoundTrips() throws {
        let proxied = try #require(proxy.url(for: URL(string: "https://cdn.example")!))
        #expect(proxied.absoluteString == "http://127.0.0.1:8080/https/cdn.example/")
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example/").absoluteString == "https://cdn.example/")
    }

    @Test func relativeReferencesResolveBackThroughTheProxy() throws {
        let playlist = try #require(proxy.url(for: URL(string: "https://cdn.example/hls/v1/index.m3u8")!))
        let segment = try #require(URL(string: "seg7.ts", relativeTo: playlist)?.absoluteURL)
        let target = segment.absoluteString.dropFirst("http://127.0.0.1:8080".count)
        #expect(try ProxyURL.origin(forTarget: String(target)).absoluteString == "https://cdn.example/hls/v1/seg7.ts")
    }

    @Test func onlyHTTPOriginsWithoutCredentialsAreProxied() throws {
        #expect(proxy.url(for: URL(string: "file:///etc/passwd")!) == nil)
        #expect(proxy.url(for: URL(string: "ftp://cdn.example/a.mp4")!) == nil)
        #expect(proxy.url(for: URL(string: "https://user:pw@cdn.example/a.mp4")!) == nil)
        #expect(throws: ProxyURLError.unsupportedScheme("file")) { try ProxyURL.origin(forTarget: "/file/etc/passwd") }
        for target in ["/", "/https", "/https/", "/https/user@cdn.example/a.mp4", "index.html"] {
            #expect(throws: ProxyURLError.self, "\(target)") { try ProxyURL.origin(forTarget: target) }
        }
    }
}

import Foundation
import MediaCacheAPI
import MediaCacheServer
import Testing

@Suite(.timeLimit(.minutes(2))) struct ProxyURLTests {
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

    /// Found by fuzzing (`Fuzz/regressions/proxy-path`): a `#` in a request target became the
    /// origin URL's fragment, so the same resource had two cache keys and its proxy path named
    /// another origin. A fragment never reaches a server (RFC 9110 §7.1); it is dropped.
    @Test func aFragmentInTheTargetIsDropped() throws {
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example/a.ts#t=10").absoluteString == "https://cdn.example/a.ts")
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example/a.ts?x=1#").absoluteString == "https://cdn.example/a.ts?x=1")
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example#/a.ts").absoluteString == "https://cdn.example/")
        // `Fuzz/regressions/proxy-path/fragment-with-a-combining-mark`: a `#` followed by a
        // combining mark is one Character, which hid it from a Character-wise search.
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example/é.ts#\u{33D}x").absoluteString == "https://cdn.example/%C3%A9.ts")
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example/a.ts?\u{33D}x=1").absoluteString == "https://cdn.example/a.ts?%CC%BDx=1")
    }

    /// Found by fuzzing (`Fuzz/regressions/playlist`): a playlist URI whose host held an encoded
    /// `/` was rewritten to a proxy path the proxy then refused. Such a URI is left as it is.
    @Test func aHostWithAnEncodedDelimiterOrAnImpossiblePortHasNoProxyPath() {
        for origin in [
            "https://other.ea%2Fb/x.ts", "https://a%40b/x.ts", "https://a%3Fb/x.ts", "https://a%20b/x.ts", "https://a%22.ts/x.ts",
        ] {
            #expect(ProxyURL.path(for: URL(string: origin)!) == nil, "\(origin)")
        }
        #expect(ProxyURL.path(for: URL(string: "https://cdn-1.example:8443/x.ts")!) == "/https/cdn-1.example:8443/x.ts")
        // `Fuzz/regressions/playlist/port-out-of-range`: a port no server can have.
        #expect(ProxyURL.path(for: URL(string: "https://[::1]:84430/x.ts")!) == nil)
        // `Fuzz/regressions/playlist/port-that-overflows`: Foundation reads a port too long for
        // an `Int` as no port, and the URI was routed to the default port's server.
        #expect(ProxyURL.path(for: URL(string: "https://[::1]:8443000000000000000000000000/v/360.m3u8")!) == nil)
    }

    /// Found by fuzzing (`Fuzz/regressions/proxy-path`): an encoded delimiter in the authority
    /// moved the rest of the URL, an empty IPv6 literal named no host, and an empty port or a port with leading zeros gave the same
    /// origin a second spelling, so a second cache key.
    @Test func anAuthorityIsReadAsOneHostAndPort() throws {
        // `invalid-punycode-label`: an `xn--` label that IDNA cannot decode names no host.
        for target in [
            "/https/a%3Fb/x.ts", "/https/a%23b/x.ts", "/https/a%2540b/x.ts", "/https/a%20b/x.ts", "/https/%5B%5D:8443/x.ts",
            "/http/127...0&0.xn--80/a//b/",
        ] {
            #expect(throws: ProxyURLError.self, "\(target)") { try ProxyURL.origin(forTarget: target) }
        }
        #expect(try ProxyURL.origin(forTarget: "/https/%5B::1%5D:/a.ts").absoluteString == "https://[::1]/a.ts")
        #expect(try ProxyURL.origin(forTarget: "/https/cdn.example:/a.ts").absoluteString == "https://cdn.example/a.ts")
        #expect(try ProxyURL.origin(forTarget: "/http/127.0.0.1:0090/a.ts").absoluteString == "http://127.0.0.1:90/a.ts")
        #expect(throws: ProxyURLError.self) { try ProxyURL.origin(forTarget: "/http/127.0.0.1:99999/a.ts") }
        // `Fuzz/regressions/playlist/empty-port`: a URI with an empty port travels without it,
        // to the same origin.
        let uri = try #require(URL(string: "https://[::1]:/8443/v/360.m3u8"))
        let emptyPort = try #require(ProxyURL.path(for: uri))
        #expect(emptyPort == "/https/%5B::1%5D/8443/v/360.m3u8")
        #expect(try ProxyURL.origin(forTarget: emptyPort).absoluteString == "https://[::1]/8443/v/360.m3u8")
        // `Fuzz/regressions/proxy-path/port-that-overflows`: not the default port.
        #expect(throws: ProxyURLError.self) { try ProxyURL.origin(forTarget: "/http/127.0.0.1:8443000000000000000000000000/a.ts") }
    }

    /// Found by fuzzing (`Fuzz/regressions/proxy-path`): an international host travelled
    /// decoded (`b%C3%BCcher.example`), so its proxy path named another spelling of the origin.
    /// It travels in its `xn--` form, as DNS knows it.
    @Test func anInternationalHostTravelsInItsASCIIForm() throws {
        for origin in ["https://xn--bcher-kva.example/a.mp4", "https://bücher.example/a.mp4"] {
            let path = try #require(ProxyURL.path(for: URL(string: origin)!))
            #expect(path == "/https/xn--bcher-kva.example/a.mp4")
            #expect(try ProxyURL.origin(forTarget: path).absoluteString == "https://xn--bcher-kva.example/a.mp4")
        }
    }
}

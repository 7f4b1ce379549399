import Foundation
import NIOHTTP1
import Testing
@testable import MediaCacheHTTP

/// Which answers redirect, where to, and which headers go along: without sockets.
@Suite(.timeLimit(.minutes(2))) struct OriginRedirectTests {
    private let url = URL(string: "https://cdn.example/v/a.mp4?sig=1")!

    private func head(_ status: UInt, location: String?) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        if let location { headers.add(name: "Location", value: location) }
        return HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: Int(status)), headers: headers)
    }

    @Test(arguments: [301, 302, 303, 307, 308] as [UInt])
    func aRedirectStatusWithALocationRedirects(status: UInt) {
        #expect(OriginRedirect.target(of: head(status, location: "/w/b.mp4"), from: url) == URL(string: "https://cdn.example/w/b.mp4"))
    }

    @Test func relativeLocationsResolveAgainstTheAskedURL() {
        #expect(OriginRedirect.target(of: head(302, location: "b.mp4"), from: url) == URL(string: "https://cdn.example/v/b.mp4"))
        #expect(
            OriginRedirect.target(of: head(302, location: "//edge.example/a.mp4"), from: url)
                == URL(string: "https://edge.example/a.mp4"))
    }

    @Test func otherAnswersAreTheAnswer() {
        #expect(OriginRedirect.target(of: head(200, location: "/b.mp4"), from: url) == nil)
        #expect(OriginRedirect.target(of: head(304, location: "/b.mp4"), from: url) == nil)
        #expect(OriginRedirect.target(of: head(302, location: nil), from: url) == nil)
        #expect(OriginRedirect.target(of: head(302, location: "file:///etc/passwd"), from: url) == nil)
        #expect(OriginRedirect.target(of: head(302, location: "ftp://cdn.example/a.mp4"), from: url) == nil)
    }

    @Test func credentialsStayWithTheirOrigin() {
        let headers: HTTPHeaders = [
            "Authorization": "Bearer x", "Cookie": "s=1", "Proxy-Authorization": "Basic y",
            "Range": "bytes=0-1", "User-Agent": "MediaCache",
        ]
        let sameOrigin = OriginRedirect.headers(headers, from: url, to: URL(string: "https://CDN.example:443/w/b.mp4")!)
        #expect(sameOrigin["Authorization"] == ["Bearer x"] && sameOrigin["Cookie"] == ["s=1"])
        for target in ["https://edge.example/a.mp4", "http://cdn.example/a.mp4", "https://cdn.example:8443/a.mp4"] {
            let moved = OriginRedirect.headers(headers, from: url, to: URL(string: target)!)
            #expect(moved["Authorization"].isEmpty && moved["Cookie"].isEmpty && moved["Proxy-Authorization"].isEmpty, "\(target)")
            #expect(moved["Range"] == ["bytes=0-1"] && moved["User-Agent"] == ["MediaCache"], "\(target)")
        }
    }
}

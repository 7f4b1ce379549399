import Foundation
import MediaCacheAPI
@testable import MediaCacheServer
import Testing

/// The fast route of a playlist's URIs gives exactly what ``ProxyURL/path(for:)`` gives.
@Suite(.timeLimit(.minutes(2))) struct PlaylistRouteTests {
    @Test(arguments: ["https://cdn.example/v/index.m3u8", "http://127.0.0.1:8081/hls/index.m3u8?sig=1", "https://[::1]:9000/live/x.m3u8"])
    func theRouteAgreesWithProxyURLForEveryKindOfURI(_ playlist: String) throws {
        let base = try #require(URL(string: playlist))
        for token in [nil, "t0ken-for-tests"] as [String?] {
            let route = PlaylistRoute(playlist: base, token: token)
            for reference in [
                "seg1.ts", "seg%201.ts?sig=a%2Fb&x=1", "/root/seg.ts", "../up/seg.ts", "sub/dir/seg.m4s",
                "https://other.example:8443/a.ts", "http://CDN.example/a.ts", "seg.ts#frag",
                "https://user:pw@cdn.example/a.ts", "skd://key-id",
            ] {
                let url = try #require(URL(string: reference, relativeTo: base)?.absoluteURL)
                let expected = ProxyURL.path(for: url).map { (token.map { "/t/\($0)" } ?? "") + $0 }
                #expect(route.path(for: url) == expected, "\(reference) in \(playlist)")
            }
        }
    }
}

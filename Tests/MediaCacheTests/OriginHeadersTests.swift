import Foundation
import MediaCache
import Testing

/// Headers given for one URL go with every request to its server, and to no other.
@Suite(.timeLimit(.minutes(2))) struct OriginHeadersTests {
    @Test func headersAreKeptPerSchemeHostAndPort() {
        let headers = OriginHeaders()
        headers.set(["Authorization": "Bearer a"], forServerOf: URL(string: "https://CDN.example/films/a/master.m3u8")!)
        #expect(headers.headers(for: URL(string: "https://cdn.example:443/films/a/v1/seg0.ts")!) == ["Authorization": "Bearer a"])
        #expect(headers.headers(for: URL(string: "http://cdn.example/films/a/master.m3u8")!).isEmpty, "another scheme")
        #expect(headers.headers(for: URL(string: "https://cdn.example:8443/a.mp4")!).isEmpty, "another port")
        #expect(headers.headers(for: URL(string: "https://keys.example/k")!).isEmpty, "another host")

        headers.set(["Authorization": "Bearer b"], forServerOf: URL(string: "https://cdn.example/films/b.mp4")!)
        #expect(headers.headers(for: URL(string: "https://cdn.example/x")!) == ["Authorization": "Bearer b"], "the last given win")
        headers.set([:], forServerOf: URL(string: "https://cdn.example/")!)
        #expect(headers.headers(for: URL(string: "https://cdn.example/x")!).isEmpty)
    }
}

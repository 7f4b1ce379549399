import Foundation
import MediaCache
import Testing

@Suite(.timeLimit(.minutes(2))) struct IdentityTests {
    @Test func anOriginURLNamesAPortAServerCanHave() throws {
        for text in ["https://cdn.test:0/a.mp4", "https://cdn.test:65536/a.mp4", "https://[::1]:8443000000000000000000000000/a.mp4"] {
            #expect(throws: OriginURLError.invalidPort(text)) { try OriginURL.check(text) }
        }
        #expect(throws: OriginURLError.noHost("https://[]/a.mp4")) { try OriginURL.check("https://[]/a.mp4") }
        // The host is read as spelled, and decoded when it has percent-escapes.
        if URL(string: "https://%5B%5D/a.mp4") != nil {
            #expect(throws: OriginURLError.noHost("https://%5B%5D/a.mp4")) { try OriginURL.check("https://%5B%5D/a.mp4") }
        }
        #expect(throws: OriginURLError.credentials(host: "cdn.test")) { try OriginURL.check("https://user:pw@cdn.test/a.mp4") }
        // `Fuzz/regressions/proxy-path/invalid-punycode-label`: a label IDNA cannot decode names no host.
        for text in ["https://xn--80/a.mp4", "https://a.XN--80/a.mp4"] {
            #expect(throws: OriginURLError.noHost(text)) { try OriginURL.check(text) }
        }
        for text in [
            "https://cdn.test:/a.mp4", "https://cdn.test:0443/a.mp4", "http://[::1]:65535/a.mp4", "https://cdn.test/a.mp4",
            "https://xn--bcher-kva.example/a.mp4",
        ] {
            #expect(try OriginURL.check(text).absoluteString == text)
        }
    }

    @Test func theDefaultKeyIsTheWholeURL() {
        let url = URL(string: "https://cdn.test/a.mp4?token=1#t=3")!
        #expect(CacheKeyNormalizer.wholeURL.key(for: url) == ResourceKey(url.absoluteString))
    }

    @Test func droppingSigningParametersKeepsTheOthersInOrder() {
        let normalizer = CacheKeyNormalizer.droppingQueryItems(["token", "Expires"])
        let first = URL(string: "https://cdn.test/v/a.mp4?q=hd&token=abc&Expires=1&lang=en")!
        let second = URL(string: "https://cdn.test/v/a.mp4?token=xyz&q=hd&Expires=2&lang=en")!
        #expect(normalizer.key(for: first).rawValue == "https://cdn.test/v/a.mp4?q=hd&lang=en")
        #expect(normalizer.key(for: first) == normalizer.key(for: second))
        #expect(normalizer.key(for: URL(string: "https://cdn.test/a.mp4?token=1")!).rawValue == "https://cdn.test/a.mp4")
        #expect(normalizer.key(for: URL(string: "https://cdn.test/a.mp4?q=sd")!) != normalizer.key(for: first))
        let directives = CacheKeyNormalizer.droppingQueryItems(["token", "_HLS_msn", "_HLS_part"])
        #expect(
            directives.key(for: URL(string: "https://cdn.test/live.m3u8?token=1&_HLS_msn=5&_HLS_part=2")!).rawValue
                == "https://cdn.test/live.m3u8?_HLS_msn=5&_HLS_part=2", "LL-HLS delivery directives name another playlist")
    }

    @Test func versionsDifferOnlyOnConflictingFacts() {
        let stored = ContentInfo(totalLength: 100, etag: "\"a\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")
        #expect(!stored.isDifferentVersion(from: ContentInfo()))
        #expect(!stored.isDifferentVersion(from: ContentInfo(totalLength: 100, etag: "\"a\"")))
        #expect(stored.isDifferentVersion(from: ContentInfo(totalLength: 101)))
        #expect(stored.isDifferentVersion(from: ContentInfo(etag: "\"b\"")))
        #expect(stored.isDifferentVersion(from: ContentInfo(lastModified: "Tue, 02 Jan 2024 00:00:00 GMT")))
        #expect(!stored.isDifferentVersion(from: ContentInfo(lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")))
        let dated = ContentInfo(lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")
        #expect(dated.isDifferentVersion(from: ContentInfo(lastModified: "Tue, 02 Jan 2024 00:00:00 GMT")))
    }

    @Test func ifRangeUsesAStrongTagOrTheDate() {
        #expect(ContentInfo(etag: "\"a\"", lastModified: "x").ifRangeValidator == "\"a\"")
        #expect(ContentInfo(etag: "W/\"a\"", lastModified: "x").ifRangeValidator == "x")
        #expect(ContentInfo().ifRangeValidator == nil)
    }
}

import Foundation
import MediaCacheAPI
import Testing
@testable import MediaCacheServer

@Suite(.timeLimit(.minutes(2))) struct ProxyTargetsTests {
    @Test func aRememberedPathStandsForTheSameOriginAsReadingIt() throws {
        let targets = ProxyTargets()
        for target in [
            "/https/cdn.example/v/clip.mp4?t=1", "/http/cdn.example:0090/a.mp4", "/https/%5B::1%5D:8443/b.m3u8#frag",
            "/HTTPS/cdn.example/%E2%82%AC.mp4",
        ] {
            let first = try targets.origin(forTarget: target)
            let again = try targets.origin(forTarget: target)
            #expect(first == (try ProxyURL.origin(forTarget: target)), "\(target)")
            #expect(again == first, "\(target)")
        }
        #expect(targets.count == 4)
    }

    @Test func refusalsAreNotRememberedAndStillRefused() {
        let targets = ProxyTargets()
        for _ in 0..<2 {
            #expect(throws: ProxyURLError.unsupportedScheme("ftp")) { try targets.origin(forTarget: "/ftp/cdn.example/a.mp4") }
            #expect(throws: ProxyURLError.self) { try targets.origin(forTarget: "/https/cdn.example:84430/a.mp4") }
        }
        #expect(targets.count == 0)
    }

    @Test func memoryStaysBoundedByPathsAndTheirLength() throws {
        let targets = ProxyTargets()
        for index in 0..<ProxyTargets.capacity * 3 {
            _ = try targets.origin(forTarget: "/https/cdn.example/\(index).mp4")
            #expect(targets.count <= ProxyTargets.capacity)
        }
        let long = "/https/cdn.example/" + String(repeating: "a", count: ProxyTargets.longestTarget) + ".mp4"
        let before = targets.count
        #expect(try targets.origin(forTarget: long) == (try ProxyURL.origin(forTarget: long)))
        #expect(targets.count == before)
    }
}

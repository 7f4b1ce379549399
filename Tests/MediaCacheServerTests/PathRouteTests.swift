import HTTPTypes
import Testing
@testable import MediaCacheServer

@Suite(.timeLimit(.minutes(2))) struct PathRouteTests {
    @Test func theServersOwnPathsAreEndpointsAndEveryOtherIsTheProxys() {
        #expect(PathRoute(path: "/", hasMetrics: false) == .endpoint(methods: [.get]))
        #expect(PathRoute(path: "/api/preload", hasMetrics: false) == .endpoint(methods: [.get, .post, .delete]))
        #expect(PathRoute(path: "/api/entries/x/pin", hasMetrics: false) == .endpoint(methods: [.put, .delete]))
        #expect(PathRoute(path: "/api/nothing", hasMetrics: false) == .endpoint(methods: nil))
        #expect(PathRoute(path: "/metrics", hasMetrics: true) == .endpoint(methods: [.get]))
        for path in ["/metrics", "/https/cdn.example/a.mp4", "/http/127.0.0.1:8080/api/x.ts", "/apix", "/nothing"] {
            #expect(PathRoute(path: path, hasMetrics: false) == .proxy, "\(path)")
            #expect(PathRoute(path: path, hasMetrics: false).methods == [.get, .head])
        }
    }
}

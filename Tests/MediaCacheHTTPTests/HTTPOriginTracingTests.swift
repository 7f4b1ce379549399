import Testing
@testable import MediaCacheHTTP

@Suite struct HTTPOriginTracingTests {
    /// With no tracer bootstrapped (as in these tests), no request builds a span.
    @Test func requestsAreNotTracedWithoutATracer() async throws {
        let origin = HTTPOrigin()
        #expect(!origin.tracesRequests)
        try await origin.shutdown()
    }
}

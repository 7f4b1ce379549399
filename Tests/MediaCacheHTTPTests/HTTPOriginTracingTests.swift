import InMemoryTracing
import MediaCache
import Testing
import Tracing
@testable import MediaCacheHTTP

@Suite(.timeLimit(.minutes(1))) struct HTTPOriginTracingTests {
    /// With no tracer bootstrapped (as in these tests), no request builds a span.
    @Test func requestsAreNotTracedWithoutATracer() async throws {
        let origin = HTTPOrigin()
        #expect(!origin.tracesRequests)
        try await origin.shutdown()
    }

    /// Under a tracer, each request is a client span that ends with the response's status,
    /// and its context goes to the origin in the request's headers.
    @Test func eachRequestIsASpanWhoseContextTheOriginReceives() async throws {
        let server = try await ScriptedOrigin.start { request in
            request.target == "/a.mp4"
                ? .answer(ScriptedOrigin.response(headers: ["Content-Type: video/mp4"], body: "bytes"))
                : .answer(ScriptedOrigin.response("404 Not Found"))
        }
        let tracer = InMemoryTracer()
        let origin = HTTPOrigin(configuration: .init(), tracer: tracer)
        #expect(origin.tracesRequests)
        let response = try await origin.fetch(OriginRequest(url: server.url("/a.mp4")))
        for try await _ in response.body {}
        _ = try? await origin.fetch(OriginRequest(url: server.url("/gone.mp4")))
        try await origin.shutdown()
        try await server.stop()

        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        #expect(spans.allSatisfy { $0.kind == .client && $0.operationName == "GET" })
        #expect(spans.map { $0.attributes["http.response.status_code"]?.toSpanAttribute() } == [.int64(200), .int64(404)])
        #expect(spans.map { $0.status?.code } == [nil, .error])
        #expect(server.requests.map { $0.headers[InMemoryTracer.traceIDKey.lowercased()] } == spans.map(\.traceID))
    }
}

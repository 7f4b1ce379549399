import AsyncHTTPClient
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheFixtures
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheServer
import MediaCacheTesting
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A proxy server on a free loopback port over an ``EngineFixture``'s engine, with a client to ask it.
struct ProxyHarness {
    let fixture: EngineFixture
    let client: HTTPClient
    let port: Int
    private let server: Task<Void, any Error>

    var origin: TestOrigin { fixture.origin }
    var directory: TemporaryDirectory { fixture.directory }
    var engine: CacheEngine { fixture.engine }
    var store: MediaStore { fixture.store }
    var loader: MediaLoader { fixture.loader }

    /// Runs `body` with a running proxy, configured by `configure`, over a fixture's engine
    /// configured by the other closures (see ``EngineFixture/run(isolation:origin:headers:engine:loading:storing:_:)``),
    /// and always shuts everything down.
    static func run(
        configure: (inout ProxyServer.Configuration) -> Void = { _ in },
        engine configureEngine: (inout CacheEngine.Configuration) -> Void = { _ in },
        loading: (inout MediaLoader.Configuration) -> Void = { _ in },
        storing: (inout MediaStore.Configuration) -> Void = { _ in },
        _ body: (ProxyHarness) async throws -> Void
    ) async throws {
        let fixture = try await EngineFixture.start(engine: configureEngine, loading: loading, storing: storing)
        var configuration = ProxyServer.Configuration(host: "127.0.0.1", port: 0)
        configure(&configuration)
        let proxy: ProxyServer
        do {
            proxy = try ProxyServer(engine: fixture.engine, configuration: configuration)
        } catch {
            await fixture.stop()
            throw error
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let server = Task { try await proxy.run(handlingSignals: false) { portContinuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let harness = ProxyHarness(
            fixture: fixture, client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup),
            port: port, server: server)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    private func stop() async {
        server.cancel()
        _ = await server.result
        try? await client.shutdown()
        await fixture.stop()
    }

    /// The proxy URL of `path` on the test origin.
    func proxied(_ path: String, token: String? = nil) -> String {
        ProxyURL(host: "127.0.0.1", port: port, token: token).url(for: origin.url(path))!.absoluteString
    }

    /// A URL of the proxy's own, such as `api/stats`.
    func local(_ path: String) -> String {
        "http://127.0.0.1:\(port)/\(path)"
    }

    /// An answer from the proxy.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// Sends a request to the proxy and collects the answer; a broken body ends the collection.
    func request(
        _ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: Data? = nil
    )
        async throws -> Answer
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(data: body)) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        var body = Data()
        do {
            for try await buffer in response.body { body.append(Data(buffer: buffer)) }
        } catch {
            // A short body: keep what arrived.
        }
        let fields = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        return Answer(status: Int(response.status.code), headers: fields, body: body)
    }
}

import AsyncHTTPClient
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheServer
import MediaCacheTesting
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A proxy server on a free loopback port, in front of a test origin, with a client to ask it.
struct ProxyHarness {
    let origin: TestOrigin
    let directory: TemporaryDirectory
    let engine: CacheEngine
    let upstream: HTTPOrigin
    let client: HTTPClient
    let port: Int
    private let server: Task<Void, any Error>

    var store: MediaStore { engine.store }
    var loader: MediaLoader { engine.loader }

    /// Runs `body` with a running proxy, configured by `configure`, over an engine configured
    /// by `configureEngine`, and always shuts everything down.
    static func run(configure: (inout ProxyServer.Configuration) -> Void = { _ in },
                    engine configureEngine: (inout CacheEngine.Configuration) -> Void = { _ in },
                    loading configureLoading: (inout LoaderConfiguration) -> Void = { _ in },
                    storing configureStore: (inout StoreConfiguration) -> Void = { _ in },
                    _ body: (ProxyHarness) async throws -> Void) async throws {
        let origin = try await TestOrigin.start()
        let directory = try TemporaryDirectory()
        var storage = StoreConfiguration()
        storage.eviction = .unlimited
        configureStore(&storage)
        let store = try MediaStore.open(at: directory.path, configuration: storage)
        let upstream = HTTPOrigin()
        var loading = LoaderConfiguration()
        loading.retry = .exponential(attempts: 3, initial: .milliseconds(10), maximum: .milliseconds(50))
        configureLoading(&loading)
        var configuration = ProxyServer.Configuration(host: "127.0.0.1", port: 0)
        configure(&configuration)
        var engineConfiguration = CacheEngine.Configuration()
        engineConfiguration.loader = loading
        configureEngine(&engineConfiguration)
        let engine = CacheEngine(owning: store, origin: upstream, configuration: engineConfiguration)
        let proxy = try ProxyServer(engine: engine, configuration: configuration)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let server = Task { try await proxy.run(handlingSignals: false) { portContinuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let harness = ProxyHarness(origin: origin, directory: directory, engine: engine, upstream: upstream,
                                   client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup), port: port,
                                   server: server)
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
        try? await engine.shutdown()
        try? await upstream.shutdown()
        try? await origin.stop()
        directory.remove()
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
    func request(_ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: Data? = nil)
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

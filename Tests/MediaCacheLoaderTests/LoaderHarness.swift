import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheTesting
import MediaCacheURLSession
import Testing

/// Which of the real origins a harness fetches through.
enum OriginKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `HTTPOrigin` (SwiftNIO).
    case nio
    /// `URLSessionOrigin` (FoundationNetworking's `URLSession` here).
    case urlSession
    /// `MemoryOrigin`: the test origin's script answered in memory, with no socket.
    case memory

    var testDescription: String { rawValue }
}

/// An engine over a store in a directory of its own, reading from a loopback test origin
/// over real HTTP.
struct LoaderHarness {
    let origin: TestOrigin
    let directory: TemporaryDirectory
    /// The origin the loader fetches through.
    let source: any MediaOrigin
    let engine: CacheEngine

    var store: MediaStore { engine.store }
    var loader: MediaLoader { engine.loader }
    var playlists: PlaylistSource { engine.playlists }

    /// The origin as `HTTPOrigin`, for a harness made with `.nio`.
    var http: HTTPOrigin { source as! HTTPOrigin }

    /// Runs `body` with a fresh harness and always shuts it down, also when `body` throws (an
    /// HTTP client dropped without shutdown traps).
    static func run(
        origin kind: OriginKind = .nio,
        configureStore: (inout StoreConfiguration) -> Void = { _ in },
        configureLoader: (inout LoaderConfiguration) -> Void = { _ in },
        _ body: (LoaderHarness) async throws -> Void
    ) async throws {
        let harness = try await start(kind: kind, configureStore: configureStore, configureLoader: configureLoader)
        do {
            try await body(harness)
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    private static func start(
        kind: OriginKind,
        configureStore: (inout StoreConfiguration) -> Void,
        configureLoader: (inout LoaderConfiguration) -> Void
    ) async throws -> LoaderHarness {
        let origin = try await TestOrigin.start()
        let directory = try TemporaryDirectory()
        var storeConfiguration = StoreConfiguration()
        storeConfiguration.eviction = .unlimited
        configureStore(&storeConfiguration)
        let store = try MediaStore.open(at: directory.path, configuration: storeConfiguration)
        var loaderConfiguration = LoaderConfiguration()
        loaderConfiguration.retry = .exponential(attempts: 5, initial: .milliseconds(10), maximum: .milliseconds(50))
        configureLoader(&loaderConfiguration)
        let source: any MediaOrigin = switch kind {
        case .nio: HTTPOrigin()
        case .urlSession: URLSessionOrigin(session: URLSession(configuration: .ephemeral))
        case .memory: MemoryOrigin(script: origin.script, root: "http://127.0.0.1:\(origin.port)")
        }
        var configuration = CacheEngine.Configuration()
        configuration.loader = loaderConfiguration
        return LoaderHarness(origin: origin, directory: directory, source: source,
                             engine: CacheEngine(owning: store, origin: source, configuration: configuration))
    }

    func stop() async throws {
        switch source {
        case let http as HTTPOrigin: try await http.shutdown()
        case let session as URLSessionOrigin: session.invalidate()
        default: break
        }
        try await origin.stop()
        try await engine.shutdown()
        directory.remove()
    }

    /// Serves `length` pattern bytes at `path` and returns the content.
    @discardableResult
    func serve(_ path: String, length: Int64, seed: UInt64 = 7, misbehavior: TestOrigin.Misbehavior = .init()) -> TestOrigin.Content {
        let content = TestOrigin.Content.pattern(length: length, seed: seed)
        origin.serve(path, content: content)
        origin.setMisbehavior(misbehavior, for: path)
        return content
    }

    /// Reads `request` of `path` to its end.
    func read(_ path: String, _ request: ByteRequest) async throws -> Read {
        var result = Read()
        for try await chunk in loader.read(origin.url(path), request) {
            if result.bytes.isEmpty { result.offset = chunk.offset }
            result.bytes.append(chunk.bytes)
            result.sources[chunk.source, default: 0] += chunk.bytes.count
        }
        return result
    }

    /// Reads `request` of `path` until at least `limit` bytes arrived, then stops listening.
    func read(_ path: String, _ request: ByteRequest, stoppingAfter limit: Int) async throws -> Read {
        var result = Read()
        for try await chunk in loader.read(origin.url(path), request) {
            result.bytes.append(chunk.bytes)
            if result.bytes.count >= limit { break }
        }
        return result
    }

    /// The store's record of `path`, waiting up to ten seconds for the store to hold it: a
    /// miss's first chunk reaches its reader before the fetch creates the resource, so a short
    /// read may be over first.
    func storedRecord(of path: String) async throws -> ResourceRecord? {
        let key = store.key(for: origin.url(path))
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let record = try store.record(for: key) { return record }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// The stored bytes of `range` of `path`, waiting up to ten seconds for the store to hold
    /// them: a read that ends within a response's first chunk is over before the fetch has
    /// written that chunk (``MediaLoader/read(_:_:purpose:)`` hands it over as it arrives).
    func storedBytes(_ range: ByteRange, of path: String) async throws -> Data {
        let key = store.key(for: origin.url(path))
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, try store.record(for: key)?.available.contains(range) != true {
            try await Task.sleep(for: .milliseconds(10))
        }
        return try store.read(range, from: key)
    }

    /// What a read delivered.
    struct Read {
        var offset: Int64 = 0
        var bytes = Data()
        var sources: [ByteChunk.Source: Int] = [:]
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheTesting
import MediaCacheURLSession

/// Which of the real origins a fixture fetches through.
package enum OriginKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `HTTPOrigin` (SwiftNIO).
    case nio
    /// `URLSessionOrigin` (FoundationNetworking's `URLSession` here).
    case urlSession
    /// `MemoryOrigin`: the test origin's script answered in memory, with no socket.
    case memory

    /// The origins that speak HTTP over a socket, as apps use them.
    package static let network: [OriginKind] = [.nio, .urlSession]

    package var description: String { rawValue }
}

/// What every test layer builds on, as `serve` and an app do: a ``CacheEngine`` over a store in
/// a directory of its own, fetching from a loopback ``TestOrigin`` through a real origin.
///
/// ```swift
/// try await EngineFixture.run(loading: { $0.readahead = 1 << 20 }) { fixture in
///     fixture.serve("/clip.mp4", length: 1_000_000)
///     let read = try await fixture.read("/clip.mp4", ByteRequest(offset: 0, length: 100))
/// }
/// ```
package struct EngineFixture {
    package let origin: TestOrigin
    package let directory: TemporaryDirectory
    /// The origin the loader fetches through.
    package let source: any MediaOrigin
    package let engine: CacheEngine

    package var store: MediaStore { engine.store }
    package var loader: MediaLoader { engine.loader }
    package var playlists: PlaylistSource { engine.playlists }

    /// The origin as `HTTPOrigin`, for a fixture made with `.nio`.
    package var http: HTTPOrigin { source as! HTTPOrigin }

    /// Runs `body` with a fresh fixture and always shuts it down, also when `body` throws (an
    /// HTTP client dropped without shutdown traps).
    ///
    /// - Parameters:
    ///   - headers: What the origin adds to requests (an app's per-asset headers).
    ///   - configure: The engine's configuration; the loader retries three times, quickly.
    ///   - loading: The loader's, after `configure`.
    ///   - storing: The store's; eviction is off.
    package static func run(
        isolation: isolated (any Actor)? = #isolation,
        origin kind: OriginKind = .nio,
        headers: OriginHeaders = OriginHeaders(),
        engine configure: (inout CacheEngine.Configuration) -> Void = { _ in },
        loading: (inout MediaLoader.Configuration) -> Void = { _ in },
        storing: (inout MediaStore.Configuration) -> Void = { _ in },
        _ body: (EngineFixture) async throws -> Void
    ) async throws {
        let fixture = try await start(origin: kind, headers: headers, engine: configure, loading: loading, storing: storing)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    /// A fresh fixture, which the caller stops (see ``run(isolation:origin:headers:engine:loading:storing:_:)``).
    package static func start(
        isolation: isolated (any Actor)? = #isolation,
        origin kind: OriginKind = .nio,
        headers: OriginHeaders = OriginHeaders(),
        engine configure: (inout CacheEngine.Configuration) -> Void = { _ in },
        loading: (inout MediaLoader.Configuration) -> Void = { _ in },
        storing: (inout MediaStore.Configuration) -> Void = { _ in }
    ) async throws -> EngineFixture {
        let origin = try await TestOrigin.start()
        let directory = try TemporaryDirectory()
        var storage = MediaStore.Configuration()
        storage.eviction = .unlimited
        storing(&storage)
        let store = try MediaStore.open(at: directory.path, configuration: storage)
        var configuration = CacheEngine.Configuration()
        configuration.loader.retry = .exponential(attempts: 3, initial: .milliseconds(10), maximum: .milliseconds(50))
        configure(&configuration)
        loading(&configuration.loader)
        let source: any MediaOrigin
        switch kind {
        case .nio:
            var http = HTTPOrigin.Configuration()
            http.serverHeaders = headers
            source = HTTPOrigin(configuration: http)
        case .urlSession:
            source = URLSessionOrigin(session: URLSession(configuration: .ephemeral), headers: headers)
        case .memory:
            source = MemoryOrigin(script: origin.script, root: "http://127.0.0.1:\(origin.port)")
        }
        return EngineFixture(
            origin: origin, directory: directory, source: source,
            engine: CacheEngine(owning: store, origin: source, configuration: configuration))
    }

    /// Shuts the engine, the origins and the store down, and removes the directory.
    package func stop() async {
        try? await engine.shutdown()
        switch source {
        case let http as HTTPOrigin: try? await http.shutdown()
        case let session as URLSessionOrigin: session.invalidate()
        default: break
        }
        try? await origin.stop()
        directory.remove()
    }

    /// Serves `length` pattern bytes at `path` and returns the content.
    @discardableResult
    package func serve(_ path: String, length: Int64, seed: UInt64 = 7, misbehavior: TestOrigin.Misbehavior = .init()) -> TestOrigin.Content
    {
        let content = TestOrigin.Content.pattern(length: length, seed: seed)
        origin.serve(path, content: content)
        origin.setMisbehavior(misbehavior, for: path)
        return content
    }

    /// Reads `request` of `path` to its end.
    package func read(_ path: String, _ request: ByteRequest) async throws -> Read {
        var result = Read()
        for try await chunk in loader.read(origin.url(path), request) {
            if result.bytes.isEmpty { result.offset = chunk.offset }
            result.bytes.append(chunk.bytes)
            result.sources[chunk.source, default: 0] += chunk.bytes.count
        }
        return result
    }

    /// Reads `request` of `path` until at least `limit` bytes arrived, then stops listening.
    package func read(_ path: String, _ request: ByteRequest, stoppingAfter limit: Int) async throws -> Read {
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
    package func storedRecord(of path: String) async throws -> ResourceRecord? {
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
    package func storedBytes(_ range: ByteRange, of path: String) async throws -> Data {
        let key = store.key(for: origin.url(path))
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, try store.record(for: key)?.available.contains(range) != true {
            try await Task.sleep(for: .milliseconds(10))
        }
        return try store.read(range, from: key)
    }

    /// What a read delivered.
    package struct Read {
        package var offset: Int64 = 0
        package var bytes = Data()
        package var sources: [ByteChunk.Source: Int] = [:]
    }
}

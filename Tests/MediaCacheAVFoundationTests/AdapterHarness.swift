#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheAVFoundation
import MediaCacheFixtures
import MediaCacheHTTP
import MediaCacheTesting
import MediaCacheURLSession
import Testing

/// An ``EngineFixture`` and a ``PlaybackCache`` over its engine, whose assets' headers reach the
/// engine's origin.
struct AdapterHarness {
    let fixture: EngineFixture
    let cache: PlaybackCache

    var origin: TestOrigin { fixture.origin }
    var directory: TemporaryDirectory { fixture.directory }
    var store: MediaStore { fixture.store }
    /// The origin the cache's loader fetches through.
    var source: any MediaOrigin { fixture.source }

    /// Runs `body` with a cache configured by `configure` (its loader and preload settings are
    /// the engine's), fetching through the `kind` origin, and always shuts everything down.
    static func run(
        isolation: isolated (any Actor)? = #isolation,
        origin kind: OriginKind = .nio,
        configure: (inout PlaybackCache.Configuration) -> Void = { _ in },
        _ body: (AdapterHarness) async throws -> Void
    ) async throws {
        var configuration = PlaybackCache.Configuration()
        configuration.loader.retry = .exponential(attempts: 3, initial: .milliseconds(10), maximum: .milliseconds(50))
        configure(&configuration)
        let headers = OriginHeaders()
        let fixture = try await EngineFixture.start(origin: kind, headers: headers) { [configuration] engine in
            engine.loader = configuration.loader
            engine.preload = configuration.preload
        }
        let harness = AdapterHarness(
            fixture: fixture,
            cache: PlaybackCache(
                engine: fixture.engine, headers: headers,
                configuration: configuration))
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    private func stop() async {
        try? await cache.close()
        await fixture.stop()
    }

    /// Serves `length` pattern bytes at `path` as MP4; returns them.
    @discardableResult
    func serve(_ path: String, length: Int64, bytesPerSecond: Int? = nil) -> Data {
        let content = TestOrigin.Content.pattern(length: length, seed: 11)
        origin.serve(path, content: content)
        origin.setMisbehavior(.init(bytesPerSecond: bytesPerSecond), for: path)
        return content.bytes(in: 0..<length)
    }

    /// Bytes the cache received from the origin and stored. Unlike what the origin sent, this
    /// leaves out what was in socket buffers when a fetch was cancelled.
    func fetched() throws -> Int64 {
        try cache.loader().statistics.bytesFromOrigin
    }

    /// A caching asset of `path` and a simulator playing AVPlayer's part against it.
    func simulator(_ path: String) -> (CachingURLAsset, ResourceLoaderSimulator) {
        let asset = CachingURLAsset(url: origin.url(path), cache: cache)
        return (asset, ResourceLoaderSimulator(asset))
    }
}
#endif

#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheHTTP
import MediaCacheTesting

/// A store of its own, the loopback test origin, and a ``MediaCache`` over a loader reading
/// from it.
struct AdapterHarness {
    let origin: TestOrigin
    let directory: TemporaryDirectory
    let store: MediaStore
    let http: HTTPOrigin
    let cache: MediaCache

    static func run(isolation: isolated (any Actor)? = #isolation,
                    configure: (inout MediaCache.Configuration) -> Void = { _ in },
                    _ body: (AdapterHarness) async throws -> Void) async throws {
        let origin = try await TestOrigin.start()
        let directory = try TemporaryDirectory()
        var storage = StoreConfiguration()
        storage.eviction = .unlimited
        let store = try MediaStore.open(at: directory.path, configuration: storage)
        var configuration = MediaCache.Configuration()
        configuration.loader.retry = .exponential(attempts: 3, initial: .milliseconds(10), maximum: .milliseconds(50))
        configure(&configuration)
        let http = HTTPOrigin()
        let loader = MediaLoader(store: store, origin: http, configuration: configuration.loader)
        let harness = AdapterHarness(origin: origin, directory: directory, store: store, http: http,
                                     cache: MediaCache(loader: loader, configuration: configuration))
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
        try? await http.shutdown()
        try? await origin.stop()
        try? store.close()
        directory.remove()
    }

    /// Serves `length` pattern bytes at `path` as MP4; returns them.
    @discardableResult
    func serve(_ path: String, length: Int64, bytesPerSecond: Int? = nil) -> Data {
        let content = TestOrigin.Content.pattern(length: length, seed: 11)
        origin.serve(path, content: content)
        origin.setMisbehavior(.init(bytesPerSecond: bytesPerSecond), for: path)
        return content.bytes(in: 0 ..< length)
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

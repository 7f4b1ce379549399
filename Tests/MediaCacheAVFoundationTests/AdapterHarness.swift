#if !canImport(AVFoundation)
import AVFoundationShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheAVFoundation
import MediaCacheHTTP
import MediaCacheTesting
import MediaCacheURLSession
import Testing

/// Which origin an ``AdapterHarness`` fetches through.
enum AdapterOrigin: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `HTTPOrigin` (SwiftNIO), the adapter's origin on Linux.
    case nio
    /// `URLSessionOrigin`, the adapter's origin on Apple platforms.
    case urlSession

    var testDescription: String { rawValue }
}

/// A store of its own, the loopback test origin, and a ``MediaCache`` over a loader reading
/// from it, whose assets' headers reach that loader's origin.
struct AdapterHarness {
    let origin: TestOrigin
    let directory: TemporaryDirectory
    let store: MediaStore
    /// The origin the cache's loader fetches through.
    let source: any MediaOrigin
    let cache: MediaCache

    static func run(isolation: isolated (any Actor)? = #isolation,
                    origin kind: AdapterOrigin = .nio,
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
        let headers = OriginHeaders()
        let source: any MediaOrigin
        switch kind {
        case .nio:
            var http = HTTPOrigin.Configuration()
            http.serverHeaders = headers
            source = HTTPOrigin(configuration: http)
        case .urlSession:
            source = URLSessionOrigin(session: URLSession(configuration: .ephemeral), headers: headers)
        }
        let loader = MediaLoader(store: store, origin: source, configuration: configuration.loader)
        let harness = AdapterHarness(origin: origin, directory: directory, store: store, source: source,
                                     cache: MediaCache(loader: loader, headers: headers, configuration: configuration))
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
        switch source {
        case let http as HTTPOrigin: try? await http.shutdown()
        case let session as URLSessionOrigin: session.invalidate()
        default: break
        }
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

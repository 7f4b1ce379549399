import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheServer

/// Where `mediacache preload` queues its jobs: on the server that owns the cache directory, or
/// on a preloader over the store opened here.
enum PreloadSession {
    case server(ProxyClient)
    case local(engine: CacheEngine, origin: HTTPOrigin)

    static func open(_ cache: CacheDirectoryOptions) throws -> PreloadSession {
        switch try cache.open(MediaStore.Configuration()) {
        case .server(let client):
            return .server(client)
        case .store(let store):
            let origin = HTTPOrigin()
            return .local(engine: CacheEngine(owning: store, origin: origin), origin: origin)
        }
    }

    /// Queues `amount` of each URL; answers their jobs.
    func start(_ urls: [URL], amount: PreloadAmount, priority: Int, maximumBandwidth: Int?) async throws -> [PreloadJob] {
        switch self {
        case .server(let client):
            var request = PreloadRequest(urls: urls.map(\.absoluteString), amount: amount, priority: priority)
            request.bandwidth = maximumBandwidth
            return try await client.preload(request)
        case .local(let engine, _):
            let preloader = engine.preloader
            for url in urls { await preloader.preload(url, amount: amount, priority: priority, maximumBandwidth: maximumBandwidth) }
            return await preloader.jobs(for: urls)
        }
    }

    /// Every job the preloader reports now.
    func jobs() async throws -> [PreloadJob] {
        switch self {
        case .server(let client): try await client.preloadJobs()
        case .local(let engine, _): await engine.preloader.jobs
        }
    }

    /// Cancels what still runs here and closes the store; a server's jobs go on.
    func close() async throws {
        guard case .local(let engine, let origin) = self else { return }
        try await engine.shutdown()
        try await origin.shutdown()
    }
}

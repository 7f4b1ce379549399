import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheServer

/// Where the download commands act: on the server that owns the cache directory, or on a
/// download manager over the store opened here (fetching only for `mediacache download`).
enum DownloadSession {
    case server(ProxyClient)
    case local(engine: CacheEngine, origin: HTTPOrigin, manager: DownloadManager)

    static func open(_ cache: CacheDirectoryOptions, fetching: Bool) async throws -> DownloadSession {
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        switch try cache.open(configuration) {
        case .server(let client):
            return .server(client)
        case .store(let store):
            let origin = HTTPOrigin()
            var configuration = CacheEngine.Configuration()
            configuration.startsDownloads = fetching
            let engine = CacheEngine(owning: store, origin: origin, configuration: configuration)
            do {
                return .local(engine: engine, origin: origin, manager: try await engine.downloads())
            } catch {
                try? await engine.shutdown()
                try? await origin.shutdown()
                throw error
            }
        }
    }

    func start(_ request: DownloadRequest, url: URL, selection: DownloadSelection) async throws -> DownloadReport {
        switch self {
        case .server(let client): try await client.startDownload(request)
        case .local(_, _, let manager): DownloadReport(try await manager.download(url, title: request.title, selection: selection))
        }
    }

    func reports() async throws -> [DownloadReport] {
        switch self {
        case .server(let client): try await client.downloadReports()
        case .local(_, _, let manager): await manager.downloads.map(DownloadReport.init)
        }
    }

    /// Pauses, resumes or removes the download `name` (an id or a URL).
    func change(_ name: String, _ action: DownloadsCommand.Action) async throws -> String {
        switch (self, action) {
        case (.server(let client), .remove):
            return "removed \(name) (\(try await client.removeDownload(name).count) resources)"
        case (.server(let client), _):
            return "\(name): \(try await client.changeDownload(name, action.rawValue).state)"
        case (.local(_, _, let manager), .remove):
            return "removed \(name) (\(try await manager.remove(name).count) resources)"
        case (.local(_, _, let manager), .pause):
            try await manager.pause(name)
            return "\(name): \(await manager.download(named: name)?.state.name ?? "paused")"
        case (.local(_, _, let manager), .resume):
            try await manager.resume(name)
            return "\(name): \(await manager.download(named: name)?.state.name ?? "queued")"
        }
    }

    /// Stops what runs here (a running download stays resumable) and closes the store.
    func close() async throws {
        guard case .local(let engine, let origin, _) = self else { return }
        try await engine.shutdown()
        try await origin.shutdown()
    }
}

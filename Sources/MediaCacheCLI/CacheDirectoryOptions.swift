import ArgumentParser
import MediaCache
import MediaCacheServer

/// The `--cache-dir` option every command takes.
struct CacheDirectoryOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "The cache directory.", discussion: "Default: \(MediaStore.defaultDirectory)", valueName: "dir"))
    var directory: String = MediaStore.defaultDirectory

    /// The cache as this process can reach it.
    enum Access {
        /// The store, opened here; the caller closes it.
        case store(MediaStore)
        /// The API of the server that owns the directory.
        case server(ProxyClient)
    }

    /// Opens the store with `configuration`, or reaches the server that owns the directory.
    func open(_ configuration: StoreConfiguration) throws -> Access {
        do {
            return .store(try MediaStore.open(at: directory, configuration: configuration))
        } catch .directoryInUse(let path, let owner) {
            guard let server = ServerAnnouncement.read(in: directory) else {
                throw MediaStoreError.directoryInUse(path: path, ownerPID: owner)
            }
            return .server(ProxyClient(server))
        }
    }

    /// Runs `body` with the cache: through the API of the server that owns the directory when
    /// one runs, else with the store opened here for maintenance (never evicting) and closed
    /// afterwards.
    func withCache<Result>(_ body: (any CacheMaintenance) async throws -> Result) async throws -> Result {
        var configuration = StoreConfiguration()
        configuration.eviction = .unlimited
        switch try open(configuration) {
        case .server(let client):
            return try await body(client)
        case .store(let store):
            do {
                let result = try await body(store)
                try store.close()
                return result
            } catch {
                try? store.close()
                throw error
            }
        }
    }
}

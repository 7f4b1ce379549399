import ArgumentParser
import MediaCache
import MediaCacheServer

/// The `--cache-dir` option every command takes.
struct CacheDirectoryOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "The cache directory.", discussion: "Default: \(MediaStore.defaultDirectory)", valueName: "dir"))
    var directory: String = MediaStore.defaultDirectory

    /// Runs `body` with the cache: through the API of the server that owns the directory when
    /// one runs, else with the store opened here for maintenance (never evicting) and closed
    /// afterwards.
    func withCache<Result>(_ body: (any CacheMaintenance) async throws -> Result) async throws -> Result {
        var configuration = StoreConfiguration()
        configuration.eviction = .unlimited
        let store: MediaStore
        do {
            store = try MediaStore.open(at: directory, configuration: configuration)
        } catch .directoryInUse(let path, let owner) {
            guard let server = ServerAnnouncement.read(in: directory) else {
                throw MediaStoreError.directoryInUse(path: path, ownerPID: owner)
            }
            return try await body(ProxyClient(server))
        }
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

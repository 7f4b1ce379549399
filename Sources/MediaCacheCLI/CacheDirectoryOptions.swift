import ArgumentParser
import MediaCache

/// The `--cache-dir` option every command takes.
struct CacheDirectoryOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "The cache directory.", discussion: "Default: \(MediaStore.defaultDirectory)", valueName: "dir"))
    var directory: String = MediaStore.defaultDirectory

    /// Opens the store for maintenance: the commands that inspect a cache never evict from it.
    func openStore() throws -> MediaStore {
        var configuration = StoreConfiguration()
        configuration.eviction = .unlimited
        return try MediaStore.open(at: directory, configuration: configuration)
    }

    /// Runs `body` with the open store and closes it afterwards.
    func withStore<Result>(_ body: (MediaStore) throws -> Result) throws -> Result {
        let store = try openStore()
        defer { try? store.close() }
        return try body(store)
    }
}

import ArgumentParser
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer

/// The `--cache-dir` and `--encrypt-key-file` options every command takes.
struct CacheDirectoryOptions: ParsableArguments {
    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The cache directory; a leading ~ is your home.", discussion: "Default: \(MediaStore.defaultDirectory)", valueName: "dir"))
    var given: String = MediaStore.defaultDirectory

    @Option(
        name: .customLong("encrypt-key-file"),
        help: ArgumentHelp(
            "Encrypt the cache at rest with the key in this file: 32 bytes, or 64 hex digits (`openssl rand -hex 32`).",
            discussion: "A cache written with another key, or none, is left as it is; this key's cache is kept apart.",
            valueName: "file"))
    var keyFile: String?

    /// The encryption `--encrypt-key-file` asks for; `nil` without it.
    func encryption() throws -> StoreEncryption? {
        guard let keyFile else { return nil }
        do {
            return try StoreEncryption(keyFile: Self.resolve(keyFile))
        } catch {
            throw ValidationError("--encrypt-key-file: \(error)")
        }
    }

    /// The cache directory as every command and file uses it: `~` expanded (also when the shell
    /// left it, as in `--cache-dir=~/x`) and made absolute, as the store names it.
    var directory: String {
        Self.resolve(given)
    }

    /// `path` with a leading `~` or `~/` replaced by the home directory, absolute and
    /// standardised.
    static func resolve(_ path: String) -> String {
        var expanded = path
        if path == "~" || path.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            expanded = home + path.dropFirst()
        }
        return URL(fileURLWithPath: expanded).standardizedFileURL.path
    }

    /// The cache as this process can reach it.
    enum Access {
        /// The store, opened here; the caller closes it.
        case store(MediaStore)
        /// The API of the server that owns the directory.
        case server(ProxyClient)
    }

    /// Opens the store with `configuration` (encrypted as `--encrypt-key-file` says), or reaches
    /// the server that owns the directory.
    func open(_ configuration: MediaStore.Configuration) throws -> Access {
        var configuration = configuration
        configuration.encryption = try encryption()
        do {
            return .store(try MediaStore.open(at: directory, configuration: configuration))
        } catch {
            guard error.code == .directoryInUse, let server = ServerAnnouncement.read(in: directory) else { throw error }
            return .server(ProxyClient(server))
        }
    }

    /// Runs `body` with the cache: through the API of the server that owns the directory when
    /// one runs, else with the store opened here for maintenance (never evicting) and closed
    /// afterwards. With `readingOnly`, a directory this process may not write is read as a
    /// ``StoreSnapshot`` instead.
    func withCache<Result>(readingOnly: Bool = false, _ body: (any CacheMaintenance) async throws -> Result) async throws -> Result {
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        let access: Access
        do {
            access = try open(configuration)
        } catch let error as MediaStoreError where readingOnly && [EACCES, EPERM, EROFS].contains(error.ioError?.code) {
            return try await body(StoreSnapshot.read(at: directory))
        }
        switch access {
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

import ArgumentParser
import Foundation
import MediaCache

/// `mediacache rm`: removes one resource, named by its URL or its key.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a cached resource.")

    @Argument(help: ArgumentHelp("The resource's URL or cache key.", valueName: "url-or-key"))
    var resource: String

    @OptionGroup var cache: CacheDirectoryOptions

    func run() throws {
        try cache.withStore { store in
            let key = try Self.key(for: resource, in: store)
            try store.remove(key)
            print("removed \(key)")
        }
    }

    /// The key itself when stored under that name, else the key of the URL.
    static func key(for resource: String, in store: MediaStore) throws -> ResourceKey {
        let asKey = ResourceKey(resource)
        if try store.record(for: asKey) != nil { return asKey }
        if let url = URL(string: resource), url.scheme != nil { return store.key(for: url) }
        return asKey
    }
}

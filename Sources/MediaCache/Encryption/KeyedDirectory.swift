import Foundation
import Logging

/// Where a store opens, given its key: a cache directory belongs to one key, or to none, and
/// is never read or changed with another.
///
/// An encrypted directory holds a marker file, `encryption`, naming its key by
/// ``StoreEncryption/keyIdentifier``. A store opened with another key, or without one, on such
/// a directory (or with a key on a directory that holds an unencrypted cache) opens empty in a
/// directory of its own inside it, `key-<identifier>` or `unencrypted`, and logs why: the
/// other cache stays intact, for when the right key is given again.
enum KeyedDirectory {
    static let markerName = "encryption"

    /// The directory the store opens in for `root` and `encryption`, created when needed.
    static func resolve(
        _ root: String, encryption: StoreEncryption?, fileSystem: any FileSystem,
        logger: Logger
    ) throws(MediaStoreError) -> String {
        let owner = try marker(in: root, fileSystem)
        guard let encryption else {
            guard let owner else { return root }
            let own = root + "/unencrypted"
            logger.error(
                "the cache directory is encrypted; opened without its key, it is left as it is and an empty unencrypted cache is used instead",
                metadata: ["directory": "\(root)", "key": "\(owner)", "instead": "\(own)"])
            return own
        }
        let identifier = encryption.keyIdentifier
        if owner == identifier { return root }
        if owner == nil, !FileManager.default.fileExists(atPath: root + "/index.sqlite") {
            try writeMarker(identifier, in: root, fileSystem)
            return root
        }
        let own = root + "/key-" + identifier
        let written = owner.map { "with another key (\($0))" } ?? "without encryption"
        logger.error(
            "the cache directory holds a cache written \(written); it is left as it is and this key's cache is kept apart",
            metadata: ["directory": "\(root)", "key": "\(identifier)", "instead": "\(own)"])
        if try marker(in: own, fileSystem) != identifier {
            try writeMarker(identifier, in: own, fileSystem)
        }
        return own
    }

    /// The key identifier the marker in `directory` names; `nil` without a marker.
    private static func marker(in directory: String, _ fileSystem: any FileSystem) throws(MediaStoreError) -> String? {
        let path = directory + "/" + markerName
        do throws(IOError) {
            guard let size = try fileSystem.sizeOfFile(at: path) else { return nil }
            let file = try fileSystem.openFile(at: path)
            defer { file.close() }
            let text = String(decoding: try file.read(count: Int(min(size, 4096)), at: 0), as: UTF8.self)
            return text.split(separator: "\n").first { $0.hasPrefix("key ") }.map { String($0.dropFirst(4)) } ?? ""
        } catch {
            throw MediaStoreError.file(error, key: nil)
        }
    }

    private static func writeMarker(_ identifier: String, in directory: String, _ fileSystem: any FileSystem) throws(MediaStoreError) {
        let text = Data("MediaCache encrypted cache; its data files open only with this key\nkey \(identifier)\n".utf8)
        do throws(IOError) {
            try fileSystem.createDirectory(at: directory)
            let file = try fileSystem.openFile(at: directory + "/" + markerName)
            defer { file.close() }
            try file.truncate(to: 0)
            try text.withUnsafeBytes { buffer in Result { () throws(IOError) in try file.write(buffer, at: 0) } }.get()
            try file.synchronize()
        } catch {
            throw MediaStoreError.file(error, key: nil)
        }
    }
}

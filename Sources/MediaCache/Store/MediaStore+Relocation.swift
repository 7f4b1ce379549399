import Foundation
import Logging

extension MediaStore {
    /// Moves a store that lives in `purgeable` (one opened before with that folder as its
    /// directory, such as the Apple adapter's former `Library/Caches/mediacache`) into `root`,
    /// all but its `data` folders, whose files stay where they are as the purgeable ones;
    /// opening then moves the pinned ones into `root` (``placeDataFiles()``). Nothing happens
    /// when `root` already holds a store or `purgeable` holds none.
    static func adoptStore(from purgeable: String, into root: String, logger: Logger) throws(MediaStoreError) {
        guard purgeable != root, !holdsStore(root), holdsStore(purgeable) else { return }
        do {
            try moveAllButData(from: purgeable, to: root)
        } catch {
            let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let code = posix.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: $0.code) : nil } ?? EIO
            throw MediaStoreError.file(IOError(operation: "move the store to \(root)", path: purgeable, code: code), key: nil)
        }
        logger.notice(
            "moved the store out of the purgeable folder; its data files stay there",
            metadata: ["from": "\(purgeable)", "to": "\(root)"])
    }

    /// Whether `directory` holds a store's index, at its top or in a keyed folder.
    private static func holdsStore(_ directory: String) -> Bool {
        let files = FileManager.default
        if files.fileExists(atPath: directory + "/index.sqlite") { return true }
        let names = (try? files.contentsOfDirectory(atPath: directory)) ?? []
        return names.contains { files.fileExists(atPath: "\(directory)/\($0)/index.sqlite") }
    }

    private static func moveAllButData(from source: String, to destination: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: source) where name != "data" {
            var isFolder: ObjCBool = false
            _ = files.fileExists(atPath: "\(source)/\(name)", isDirectory: &isFolder)
            if isFolder.boolValue {
                try moveAllButData(from: "\(source)/\(name)", to: "\(destination)/\(name)")
            } else {
                try files.moveItem(atPath: "\(source)/\(name)", toPath: "\(destination)/\(name)")
            }
        }
    }
}

import Foundation

extension MediaStore {
    /// Moves each data file found in the wrong folder where its resource's pinning puts it
    /// (see ``MediaStore/Configuration/purgeableDirectory``): after a crash between a file's move and
    /// its record, or in a store that kept every file in its own directory. Runs on open,
    /// before anything reads a file.
    func placeDataFiles() throws(MediaStoreError) {
        guard purgeableDataDirectory != dataDirectory else { return }
        let resources = try indexOperation("place data files") { try index.allResources() }
        // One listing of each folder, not a look per resource: this runs at every open.
        let (kept, purgeable): (Set<String>, Set<String>)
        do {
            (kept, purgeable) = (
                Set(try fileSystem.contentsOfDirectory(at: dataDirectory)),
                Set(try fileSystem.contentsOfDirectory(at: purgeableDataDirectory))
            )
        } catch {
            throw MediaStoreError.file(error, key: nil)
        }
        var moved = (count: 0, pinned: 0)
        for resource in resources {
            let name = "\(resource.id).data"
            let (wanted, other) = resource.isPinned ? (kept, purgeable) : (purgeable, kept)
            guard !wanted.contains(name), other.contains(name) else { continue }
            do throws(IOError) {
                try fileSystem.moveFile(
                    at: dataPath(for: resource.id, pinned: !resource.isPinned),
                    to: dataPath(for: resource.id, pinned: resource.isPinned))
            } catch {
                throw MediaStoreError.file(error, key: resource.key)
            }
            moved.count += 1
            if resource.isPinned { moved.pinned += 1 }
        }
        if moved.count > 0 {
            configuration.logger.notice(
                "moved data files where their pinning puts them",
                metadata: ["files": "\(moved.count)", "pinned": "\(moved.pinned)"])
        }
    }

    /// Brings the index in line with the data files after a crash or outside interference
    /// (a purge of the purgeable folder among it): spans past a data file's end are dropped
    /// and files the index does not name are removed.
    func reconcile() throws(MediaStoreError) {
        let (resources, cached) = try indexOperation("reconcile") { (try index.allResources(), try index.spanEnds()) }
        var known = Set<String>()
        for resource in resources {
            let path = dataPath(for: resource.id, pinned: resource.isPinned)
            known.insert(path)
            guard let end = cached[resource.id] else { continue }
            let size: Int64
            do {
                size = capacity(ofDataFileSize: try fileSystem.sizeOfFile(at: path) ?? 0)
            } catch {
                throw MediaStoreError.file(error, key: resource.key)
            }
            guard end > size else { continue }
            try indexOperation("reconcile") { try index.truncateSpans(of: resource.id, to: size) }
            configuration.logger.warning(
                "index claimed bytes past the data file; dropped",
                metadata: ["key": "\(resource.key)", "size": "\(size)", "claimed": "\(end)"])
        }
        for folder in Set([dataDirectory, purgeableDataDirectory]) {
            let names: [String]
            do {
                names = try fileSystem.contentsOfDirectory(at: folder)
            } catch {
                throw MediaStoreError.file(error, key: nil)
            }
            for name in names where !known.contains("\(folder)/\(name)") {
                do {
                    try fileSystem.removeFile(at: "\(folder)/\(name)")
                } catch {
                    configuration.logger.warning("could not remove orphan file", metadata: ["file": "\(name)"])
                }
            }
        }
    }
}

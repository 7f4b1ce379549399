import Foundation

extension MediaStore {
    /// Brings the index in line with the data files after a crash or outside interference:
    /// spans past a data file's end are dropped and files the index does not name are removed.
    func reconcile() throws(MediaStoreError) {
        let (resources, cached) = try indexOperation("reconcile") { (try index.allResources(), try index.spanEnds()) }
        var known = Set<String>()
        for resource in resources {
            let name = "\(resource.id).data"
            known.insert(name)
            guard let end = cached[resource.id] else { continue }
            let size: Int64
            do {
                size = capacity(ofDataFileSize: try fileSystem.sizeOfFile(at: dataPath(for: resource.id)) ?? 0)
            } catch {
                throw MediaStoreError(error, key: resource.key)
            }
            guard end > size else { continue }
            try indexOperation("reconcile") { try index.truncateSpans(of: resource.id, to: size) }
            configuration.logger.warning("index claimed bytes past the data file; dropped",
                                         metadata: ["key": "\(resource.key)", "size": "\(size)", "claimed": "\(end)"])
        }
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(at: dataDirectory)
        } catch {
            throw MediaStoreError(error, key: nil)
        }
        for name in names where !known.contains(name) {
            do {
                try fileSystem.removeFile(at: "\(dataDirectory)/\(name)")
            } catch {
                configuration.logger.warning("could not remove orphan file", metadata: ["file": "\(name)"])
            }
        }
    }
}

import Foundation

extension MediaStore {
    /// The slot of a stored resource, loading it from the index on first use.
    func slot(for key: ResourceKey) throws(MediaStoreError) -> ResourceSlot {
        guard let slot = try existingSlot(for: key) else { throw .unknownResource(key) }
        return slot
    }

    /// The slot of `key`, or `nil` when the index has no such resource.
    func existingSlot(for key: ResourceKey) throws(MediaStoreError) -> ResourceSlot? {
        try catalog.withLock { catalog throws(MediaStoreError) -> ResourceSlot? in
            guard !catalog.isClosed else { throw .closed }
            if let slot = catalog.slots[key] { return slot }
            guard catalog.indexed.mayContain(key), let slot = try loadSlot(for: key) else { return nil }
            catalog.slots[key] = slot
            return slot
        }
    }

    /// The slot of `key`, creating the resource from `url` and `info` when the index has none.
    func slot(for key: ResourceKey, creatingFrom url: URL, info: ContentInfo) throws(MediaStoreError) -> ResourceSlot {
        try catalog.withLock { catalog throws(MediaStoreError) -> ResourceSlot in
            guard !catalog.isClosed else { throw .closed }
            if let slot = catalog.slots[key] { return slot }
            let slot: ResourceSlot
            if catalog.indexed.mayContain(key), let loaded = try loadSlot(for: key) {
                slot = loaded
            } else {
                let now = clock.now()
                let resource = try indexOperation("create resource") {
                    try index.insertResource(key: key, url: url.absoluteString, info: info, now: now)
                }
                slot = ResourceSlot(resource: resource, committed: ByteRangeSet(), path: dataPath(for: resource.id))
                catalog.indexed.insert(key)
            }
            catalog.slots[key] = slot
            return slot
        }
    }

    /// Reads a resource and its spans from the index; the caller holds the catalog lock, so no
    /// removal can interleave.
    private func loadSlot(for key: ResourceKey) throws(MediaStoreError) -> ResourceSlot? {
        try indexOperation("load resource") {
            guard let resource = try index.resource(for: key) else { return nil }
            let spans = try index.spans(of: resource.id)
            return ResourceSlot(resource: resource, committed: spans, path: dataPath(for: resource.id))
        }
    }
}

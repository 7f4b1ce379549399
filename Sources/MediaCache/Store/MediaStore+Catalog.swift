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
    ///
    /// The index insert runs outside the catalog lock, so that looking up any resource (this
    /// one too: a miss's reader asks while its resource is being created) never waits for it;
    /// creations take turns under ``creationLock``.
    func slot(for key: ResourceKey, creatingFrom url: URL, info: ContentInfo) throws(MediaStoreError) -> ResourceSlot {
        if let slot = try existingSlot(for: key) { return slot }
        creationLock.lock()
        defer { creationLock.unlock() }
        if let slot = try existingSlot(for: key) { return slot }
        let now = clock.now()
        let resource = try indexOperation("create resource") {
            try index.insertResource(key: key, url: url.absoluteString, info: info, now: now)
        }
        checkpointIndexSoonIfLarge()
        return try catalog.withLock { catalog throws(MediaStoreError) -> ResourceSlot in
            guard !catalog.isClosed else { throw .closed }
            catalog.indexed.insert(key)
            // A lookup whose digest collided may have loaded the new row meanwhile.
            if let slot = catalog.slots[key] { return slot }
            let slot = ResourceSlot(
                resource: resource, committed: ByteRangeSet(), path: dataPath(for: resource.id, pinned: resource.isPinned))
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
            return ResourceSlot(resource: resource, committed: spans, path: dataPath(for: resource.id, pinned: resource.isPinned))
        }
    }
}

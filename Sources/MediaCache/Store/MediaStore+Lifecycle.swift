import Foundation

extension MediaStore {
    /// Drops every cached byte of `key` and moves it to a new generation, keeping its
    /// content information; use when the content is known to have changed.
    ///
    /// - Returns: The new generation.
    @discardableResult
    public func invalidate(_ key: ResourceKey) throws(MediaStoreError) -> Generation {
        let slot = try slot(for: key)
        return try startNewGeneration(of: slot, info: slot.state.withLock(\.info), validatedAt: nil)
    }

    /// Moves `slot` to a new generation described by `info`, which the origin confirmed at
    /// `validatedAt` (`nil`: not confirmed, so due for revalidation).
    ///
    /// The index forgets the spans first, then the file is removed: a crash in between leaves
    /// bytes the index does not claim, never the reverse. The next write makes a new file, so
    /// a ``StoredFileSpan`` still being sent keeps reading the old generation's bytes.
    func startNewGeneration(
        of slot: ResourceSlot, info: ContentInfo, validatedAt: Date?
    ) throws(MediaStoreError) -> Generation {
        try slot.io.withExclusiveLock { () throws(MediaStoreError) -> Generation in
            let (current, isRemoved) = slot.state.withLock { ($0.generation, $0.isRemoved) }
            guard !isRemoved else { throw .unknownResource(slot.key) }
            let next = current.next
            try indexOperation("start generation") {
                try index.startGeneration(next, id: slot.id, info: info, validatedAt: validatedAt)
            }
            slot.state.withLock { state in
                state.generation = next
                state.info = info
                state.validatedAt = validatedAt
                state.committed = ByteRangeSet()
                state.pending = ByteRangeSet()
                state.available = ByteRangeSet()
            }
            slot.closeFile()
            do {
                try fileSystem.removeFile(at: slot.path)
            } catch {
                configuration.logger.warning(
                    "could not remove data file of a changed resource",
                    metadata: ["key": "\(slot.key)", "error": "\(error)"])
            }
            configuration.logger.info("content changed", metadata: ["key": "\(slot.key)", "generation": "\(next)"])
            return next
        }
    }

    /// Removes `key` and its data file. Readers still holding it get
    /// ``MediaStoreError/unknownResource(_:)``.
    public func remove(_ key: ResourceKey) throws(MediaStoreError) {
        try catalog.withLock { catalog throws(MediaStoreError) in
            guard !catalog.isClosed else { throw .closed }
            let path: String
            if let slot = catalog.slots[key] {
                path = slot.path
                try slot.io.withExclusiveLock { () throws(MediaStoreError) in
                    try indexOperation("remove resource") { try index.deleteResource(id: slot.id) }
                    slot.retire()
                }
                catalog.slots[key] = nil
            } else {
                guard catalog.indexed.mayContain(key),
                    let resource = try indexOperation("find resource", { try index.resource(for: key) })
                else {
                    throw .unknownResource(key)
                }
                path = dataPath(for: resource.id, pinned: resource.isPinned)
                try indexOperation("remove resource") { try index.deleteResource(id: resource.id) }
            }
            catalog.indexed.remove(key)
            removeDataFile(at: path)
        }
    }

    /// Removes every resource, or every unpinned one when `includingPinned` is false.
    ///
    /// - Returns: The keys removed.
    @discardableResult
    public func removeAll(includingPinned: Bool = true) throws(MediaStoreError) -> [ResourceKey] {
        let keys = try entries().filter { includingPinned || !$0.isPinned }.map(\.key)
        for key in keys { try remove(key) }
        return keys
    }

    /// Pins `key` (an offline download: never evicted) or unpins it. With a
    /// ``MediaStore/Configuration/purgeableDirectory`` its data file moves: into the store's
    /// directory when pinned, out to the purgeable one when not. The file moves before the
    /// index changes; a crash between the two leaves it where the next open finds and places it.
    public func setPinned(_ pinned: Bool, for key: ResourceKey) throws(MediaStoreError) {
        let slot = try slot(for: key)
        try slot.io.withExclusiveLock { () throws(MediaStoreError) in
            let (from, isRemoved) = slot.state.withLock { ($0.path, $0.isRemoved) }
            guard !isRemoved else { throw .unknownResource(key) }
            let to = dataPath(for: slot.id, pinned: pinned)
            if to != from {
                // An open file stays valid across the move; the next open uses the new path.
                do throws(IOError) {
                    if try fileSystem.sizeOfFile(at: from) != nil { try fileSystem.moveFile(at: from, to: to) }
                } catch {
                    throw MediaStoreError.file(error, key: key)
                }
            }
            try indexOperation("pin") { try index.setPinned(pinned, id: slot.id) }
            slot.state.withLock { state in
                state.isPinned = pinned
                state.path = to
            }
        }
    }

    /// A failed unlink only leaves an orphan file, which the next open removes.
    func removeDataFile(at path: String) {
        do {
            try fileSystem.removeFile(at: path)
        } catch {
            configuration.logger.warning("could not remove data file", metadata: ["error": "\(error)"])
        }
    }
}

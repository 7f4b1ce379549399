import Foundation

extension MediaStore {
    /// Every stored resource, most recently used first, including bytes not yet committed.
    public func entries() throws(MediaStoreError) -> [StoreEntry] {
        let slots = try catalog.withLock { catalog throws(MediaStoreError) in
            guard !catalog.isClosed else { throw .closed }
            return catalog.slots
        }
        let (resources, cached) = try indexOperation("list") { (try index.allResources(), try index.cachedBytes()) }
        let entries = resources.map { resource in
            var entry = StoreEntry(
                key: resource.key, url: resource.url, cachedBytes: cached[resource.id] ?? 0,
                totalLength: resource.info.totalLength, mimeType: resource.info.mimeType,
                isPinned: resource.isPinned, lastAccess: resource.lastAccess,
                generation: resource.generation)
            if let slot = slots[resource.key] {
                slot.state.withLock { state in
                    entry.cachedBytes = state.available.coveredLength
                    entry.totalLength = state.info.totalLength
                    entry.mimeType = state.info.mimeType
                    entry.isPinned = state.isPinned
                    entry.lastAccess = max(entry.lastAccess, state.lastAccess)
                    entry.generation = state.generation
                }
            }
            return entry
        }
        return entries.sorted { ($0.lastAccess, $1.key) > ($1.lastAccess, $0.key) }
    }

    /// Totals over every stored resource.
    public func usage() throws(MediaStoreError) -> StoreUsage {
        StoreUsage(entries: try entries())
    }
}

extension MediaStore {
    /// The key a person means by `text`: `text` itself when a resource is stored under that key,
    /// else the key of the URL `text` (normalised as the store normalises keys).
    public func key(named text: String) throws(MediaStoreError) -> ResourceKey {
        let asKey = ResourceKey(text)
        if try record(for: asKey) != nil { return asKey }
        if let url = URL(string: text), url.scheme != nil { return key(for: url) }
        return asKey
    }
}

import Foundation

/// Offline downloads in the store: their records, and the resources each fetched, which are
/// pinned (never evicted, never removed by ``MediaStore/removeAll(includingPinned:)`` without
/// `includingPinned`).
extension MediaStore {
    /// Every download, oldest first.
    public func downloads() throws(MediaStoreError) -> [StoredDownload] {
        try indexOperation("list downloads") { try index.downloads() }
    }

    /// Records `download`, new or changed.
    public func saveDownload(_ download: StoredDownload) throws(MediaStoreError) {
        try indexOperation("save download") { try index.saveDownload(download, key: key(for: download.url)) }
    }

    /// Pins the stored resources `keys` as part of download `id`.
    public func addDownloadMembers(_ keys: [ResourceKey], to id: String) throws(MediaStoreError) {
        try indexOperation("record download members") { try index.addDownloadMembers(keys, to: id) }
        for key in keys {
            do {
                try setPinned(true, for: key)
            } catch  where error.code == .unknownResource {
                continue
            }
        }
    }

    /// Removes download `id` and exactly its bytes: every resource of it that no other download
    /// has is removed; shared ones stay pinned.
    ///
    /// - Returns: The keys of the resources removed.
    @discardableResult
    public func removeDownload(_ id: String) throws(MediaStoreError) -> [ResourceKey] {
        let (members, shared) = try indexOperation("find download members") { try index.downloadMembers(of: id) }
        try indexOperation("remove download") { try index.deleteDownload(id: id) }
        var removed: [ResourceKey] = []
        for key in members where !shared.contains(key) {
            do {
                try remove(key)
                removed.append(key)
            } catch  where error.code == .unknownResource {
                continue
            }
        }
        return removed
    }

    /// Whether `key` belongs to a download.
    public func isDownloaded(_ key: ResourceKey) throws(MediaStoreError) -> Bool {
        try indexOperation("find download member") { try index.isDownloadMember(key) }
    }

    /// The resources recorded for download `id`.
    public func downloadMembers(of id: String) throws(MediaStoreError) -> [ResourceKey] {
        try indexOperation("find download members") { try index.downloadMembers(of: id).all }
    }
}

import Foundation

/// HLS assets: resources that play together, recorded as their playlists are read.
///
/// ```swift
/// try store.recordAsset(masterURL, playlists: [AssetPlaylist(url: v720, kind: .variant, name: "1280x720")])
/// try store.recordPlaylist(v720, generation: record.generation, members: segments)
/// for asset in try store.assets() { print(asset.url, asset.playlists.map(\.cachedSeconds)) }
/// ```
extension MediaStore {
    /// Records the asset whose top playlist (a multivariant playlist) is `url`, and the media
    /// playlists it lists. An asset recorded before for one of those alone joins it.
    public func recordAsset(_ url: URL, playlists: [AssetPlaylist]) throws(MediaStoreError) {
        let rows = playlists.map {
            StoreIndex.PlaylistRow(key: key(for: $0.url), url: $0.url.absoluteString, kind: $0.kind, name: $0.name)
        }
        try indexOperation("record asset") { try index.recordAsset(key: key(for: url), url: url.absoluteString, playlists: rows) }
    }

    /// Records what media playlist `url`, at content `generation`, names: in the asset that
    /// lists it, or in an asset of its own when it is played alone. Each generation is recorded
    /// once; members recorded before stay (a live window's older segments still belong).
    public func recordPlaylist(_ url: URL, generation: Generation, members: [AssetMember]) throws(MediaStoreError) {
        let rows = members.map {
            StoreIndex.MemberRow(key: key(for: $0.url), role: $0.role, duration: $0.duration, byteRange: $0.byteRange)
        }
        try indexOperation("record playlist") {
            try index.recordPlaylist(key: key(for: url), url: url.absoluteString, generation: generation, members: rows)
        }
    }

    /// Whether the members of media playlist `url` at `generation` are recorded, so that a
    /// caller can skip listing them again.
    public func isPlaylistRecorded(_ url: URL, generation: Generation) throws(MediaStoreError) -> Bool {
        try indexOperation("find playlist") { try index.isPlaylistRecorded(key: key(for: url), generation: generation) }
    }

    /// Every recorded asset with the seconds cached of each of its playlists, after committing
    /// what was written so far.
    public func assets() throws(MediaStoreError) -> [StoreAsset] {
        try commitPending()
        let entries = Dictionary(try entries().map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = try indexOperation("list assets") { try index.assetRows() }
        return AssetListing.assets(from: rows, entries: entries)
    }

    /// Removes the asset named by its top playlist's `key` and every stored resource of it
    /// that no other asset lists.
    ///
    /// - Returns: The keys of the resources removed.
    /// - Throws: ``MediaStoreError/unknownResource(_:)`` when no asset has that key.
    @discardableResult
    public func removeAsset(_ key: ResourceKey) throws(MediaStoreError) -> [ResourceKey] {
        let assets = try assets()
        guard let asset = assets.first(where: { $0.key == key }) else { throw .unknownResource(key) }
        let kept = Set(assets.filter { $0.key != key }.flatMap(\.memberKeys))
        try indexOperation("remove asset") { try index.deleteAsset(key: key) }
        var removed: [ResourceKey] = []
        for member in asset.memberKeys where !kept.contains(member) {
            do {
                try remove(member)
                removed.append(member)
            } catch  where error.code == .unknownResource {
                continue
            }
        }
        return removed
    }
}

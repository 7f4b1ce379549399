import Foundation

/// Builds ``StoreAsset`` values from the index's asset rows and the stored resources; pure.
enum AssetListing {
    static func assets(from rows: StoreIndex.AssetRows, entries: [ResourceKey: StoreEntry]) -> [StoreAsset] {
        let playlists = Dictionary(grouping: rows.playlists, by: \.assetID)
        let members = Dictionary(grouping: rows.members, by: \.assetID)
        let bytes = { (keys: [ResourceKey]) in Set(keys).reduce(Int64(0)) { $0 + (entries[$1]?.cachedBytes ?? 0) } }
        return rows.assets.map { asset in
            let assetPlaylists = playlists[asset.id] ?? []
            let assetMembers = members[asset.id] ?? []
            let byPlaylist = Dictionary(grouping: assetMembers, by: \.playlistKey)
            var keys = [asset.key] + assetPlaylists.map(\.row.key)
            var seen = Set(keys)
            for member in assetMembers where seen.insert(member.key).inserted { keys.append(member.key) }
            let summaries = assetPlaylists.map { playlist in
                let seconds = rows.seconds[asset.id]?[playlist.row.key]
                return StoreAsset.Playlist(
                    key: playlist.row.key, url: playlist.row.url, kind: playlist.row.kind, name: playlist.row.name,
                    seconds: seconds?.total ?? 0, cachedSeconds: seconds?.cached ?? 0,
                    cachedBytes: bytes([playlist.row.key] + (byPlaylist[playlist.row.key] ?? []).map(\.key)))
            }
            return StoreAsset(
                key: asset.key, url: asset.url, playlists: summaries, cachedBytes: bytes(keys),
                lastAccess: keys.compactMap { entries[$0]?.lastAccess }.max(), memberKeys: keys)
        }
    }
}

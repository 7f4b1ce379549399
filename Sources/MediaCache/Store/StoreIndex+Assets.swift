import Foundation
import GRDB

extension StoreIndex {
    /// A playlist row to record.
    struct PlaylistRow {
        var key: ResourceKey
        var url: String
        var kind: AssetPlaylistKind
        var name: String
    }

    /// A member row to record.
    struct MemberRow {
        var key: ResourceKey
        var role: AssetMember.Role
        var duration: Double?
        var byteRange: ByteRange?
    }

    /// Everything recorded of the assets, for ``AssetListing``.
    struct AssetRows {
        struct Asset { var id: Int64; var key: ResourceKey; var url: String }
        struct Playlist { var assetID: Int64; var row: PlaylistRow }
        struct Member { var assetID: Int64; var playlistKey: ResourceKey; var key: ResourceKey; var role: AssetMember.Role }
        struct Seconds { var total: Double; var cached: Double }

        var assets: [Asset] = []
        var playlists: [Playlist] = []
        var members: [Member] = []
        /// Segment seconds per asset id and playlist key.
        var seconds: [Int64: [ResourceKey: Seconds]] = [:]
    }

    /// Records the asset named by its top playlist `key` and the media playlists it lists. An
    /// asset recorded earlier for one of those playlists alone (played before its multivariant
    /// playlist was) joins this one.
    func recordAsset(key: ResourceKey, url: String, playlists: [PlaylistRow]) throws {
        try pool.write { db in
            let id = try Self.assetID(db, key: key, url: url)
            for (position, playlist) in playlists.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO asset_playlist (asset_id, key, url, kind, name, position) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (asset_id, key) DO UPDATE SET url = excluded.url, kind = excluded.kind,
                            name = excluded.name, position = excluded.position
                        """,
                    arguments: [id, playlist.key.rawValue, playlist.url, playlist.kind.rawValue, playlist.name, position])
                guard
                    let alone = try Int64.fetchOne(
                        db, sql: "SELECT id FROM asset WHERE key = ? AND id != ?",
                        arguments: [playlist.key.rawValue, id])
                else { continue }
                try db.execute(sql: "UPDATE OR IGNORE asset_member SET asset_id = ? WHERE asset_id = ?", arguments: [id, alone])
                try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [alone])
            }
        }
    }

    /// Records the members of media playlist `key` at `generation`, in the asset that lists
    /// it, or in an asset of its own when none does. A generation recorded before is skipped;
    /// members of earlier generations stay (a live window's older segments still belong).
    func recordPlaylist(key: ResourceKey, url: String, generation: Generation, members: [MemberRow]) throws {
        try pool.write { db in
            var id = try Int64.fetchOne(
                db, sql: "SELECT asset_id FROM asset_playlist WHERE key = ? ORDER BY asset_id LIMIT 1",
                arguments: [key.rawValue])
            if id == nil {
                let own = try Self.assetID(db, key: key, url: url)
                try db.execute(
                    sql: "INSERT INTO asset_playlist (asset_id, key, url, kind, name, position) VALUES (?, ?, ?, 'media', '', 0)",
                    arguments: [own, key.rawValue, url])
                id = own
            }
            let recorded = try Int64.fetchOne(
                db, sql: "SELECT recorded_generation FROM asset_playlist WHERE asset_id = ? AND key = ?",
                arguments: [id, key.rawValue])
            guard recorded != generation.value else { return }
            let insert = try db.makeStatement(
                sql: """
                    INSERT OR IGNORE INTO asset_member (asset_id, playlist_key, key, role, duration, range_start, range_end)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
            for member in members {
                try insert.execute(arguments: [
                    id, key.rawValue, member.key.rawValue, member.role.rawValue, member.duration,
                    member.byteRange?.lowerBound, member.byteRange?.upperBound,
                ])
            }
            try db.execute(
                sql: "UPDATE asset_playlist SET recorded_generation = ? WHERE asset_id = ? AND key = ?",
                arguments: [generation.value, id, key.rawValue])
        }
    }

    /// Whether the members of media playlist `key` at `generation` are recorded.
    func isPlaylistRecorded(key: ResourceKey, generation: Generation) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM asset_playlist WHERE key = ? AND recorded_generation = ? LIMIT 1",
                arguments: [key.rawValue, generation.value]) ?? false
        }
    }

    func deleteAsset(key: ResourceKey) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM asset WHERE key = ?", arguments: [key.rawValue])
        }
    }

    /// Every asset, playlist and member, and the seconds of each playlist's segments whose
    /// bytes the index records in full.
    func assetRows() throws -> AssetRows {
        try pool.read { db in
            var rows = AssetRows()
            rows.assets = try Row.fetchAll(db, sql: "SELECT id, key, url FROM asset ORDER BY id").map {
                AssetRows.Asset(id: $0["id"], key: ResourceKey($0["key"]), url: $0["url"])
            }
            rows.playlists = try Row.fetchAll(db, sql: "SELECT * FROM asset_playlist ORDER BY asset_id, position").map {
                AssetRows.Playlist(
                    assetID: $0["asset_id"],
                    row: PlaylistRow(
                        key: ResourceKey($0["key"]), url: $0["url"], kind: AssetPlaylistKind(rawValue: $0["kind"]),
                        name: $0["name"]))
            }
            rows.members = try Row.fetchAll(db, sql: "SELECT asset_id, playlist_key, key, role FROM asset_member ORDER BY rowid").map {
                AssetRows.Member(
                    assetID: $0["asset_id"], playlistKey: ResourceKey($0["playlist_key"]), key: ResourceKey($0["key"]),
                    role: AssetMember.Role(rawValue: $0["role"]))
            }
            let seconds = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.asset_id, m.playlist_key, SUM(m.duration) AS total,
                        SUM(CASE WHEN EXISTS (
                            SELECT 1 FROM resource r JOIN span s ON s.resource_id = r.id
                            WHERE r.key = m.key AND s.start <= IFNULL(m.range_start, 0)
                                AND s."end" >= IFNULL(m.range_end, r.total_length)
                        ) THEN m.duration ELSE 0 END) AS cached
                    FROM asset_member m WHERE m.role = 'segment'
                    GROUP BY m.asset_id, m.playlist_key
                    """)
            for row in seconds {
                rows.seconds[row["asset_id"], default: [:]][ResourceKey(row["playlist_key"])] =
                    AssetRows.Seconds(total: row["total"] ?? 0, cached: row["cached"] ?? 0)
            }
            return rows
        }
    }

    /// The id of the asset named `key`, created when new.
    private static func assetID(_ db: Database, key: ResourceKey, url: String) throws -> Int64 {
        try db.execute(sql: "INSERT INTO asset (key, url) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", arguments: [key.rawValue, url])
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE key = ?", arguments: [key.rawValue]) else {
            throw StoreIndexError.missingAsset(key)
        }
        return id
    }
}

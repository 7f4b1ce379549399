import Foundation
import GRDB

extension StoreIndex {
    func saveDownload(_ download: StoredDownload, key: ResourceKey) throws {
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO download (id, key, url, title, selection, state, error, bytes_done, bytes_expected,
                                          expected_is_estimate, created, updated)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET title = excluded.title, selection = excluded.selection,
                        state = excluded.state, error = excluded.error, bytes_done = excluded.bytes_done,
                        bytes_expected = excluded.bytes_expected, expected_is_estimate = excluded.expected_is_estimate,
                        updated = excluded.updated
                    """,
                arguments: [
                    download.id, key.rawValue, download.url.absoluteString, download.title,
                    String(decoding: download.selection, as: UTF8.self), download.state, download.error,
                    download.bytesDone, download.bytesExpected, download.expectedIsEstimate,
                    download.created.timeIntervalSince1970, download.updated.timeIntervalSince1970,
                ])
        }
    }

    func downloads() throws -> [StoredDownload] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM download ORDER BY created, id").compactMap { row in
                guard let url = URL(string: row["url"]) else { return nil }
                return StoredDownload(
                    id: row["id"], url: url, title: row["title"], selection: Data((row["selection"] as String).utf8),
                    state: row["state"], error: row["error"], bytesDone: row["bytes_done"], bytesExpected: row["bytes_expected"],
                    expectedIsEstimate: row["expected_is_estimate"], created: Date(timeIntervalSince1970: row["created"]),
                    updated: Date(timeIntervalSince1970: row["updated"]))
            }
        }
    }

    func deleteDownload(id: String) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM download WHERE id = ?", arguments: [id])
        }
    }

    func addDownloadMembers(_ keys: [ResourceKey], to id: String) throws {
        try pool.write { db in
            let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO download_member (download_id, key) VALUES (?, ?)")
            for key in keys { try insert.execute(arguments: [id, key.rawValue]) }
        }
    }

    func isDownloadMember(_ key: ResourceKey) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM download_member WHERE key = ? LIMIT 1", arguments: [key.rawValue]) ?? false
        }
    }

    /// The resources of download `id`, and which of them another download has too.
    func downloadMembers(of id: String) throws -> (all: [ResourceKey], shared: Set<ResourceKey>) {
        try pool.read { db in
            let all = try String.fetchAll(db, sql: "SELECT key FROM download_member WHERE download_id = ?", arguments: [id])
            let shared = try String.fetchAll(
                db,
                sql: """
                    SELECT m.key FROM download_member m
                    WHERE m.download_id = ? AND EXISTS (SELECT 1 FROM download_member o WHERE o.key = m.key AND o.download_id != ?)
                    """, arguments: [id, id])
            return (all.map(ResourceKey.init), Set(shared.map(ResourceKey.init)))
        }
    }
}

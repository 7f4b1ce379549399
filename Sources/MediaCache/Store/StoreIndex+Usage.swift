import Foundation
import GRDB

extension StoreIndex {
    /// What the index holds in all: its cached bytes and resources, kept by triggers as rows
    /// change (schema v5), and the least recent access, from the `last_access` index. It costs
    /// the same however many resources there are.
    func usage() throws -> EvictionPlanner.Usage {
        try pool.read { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT bytes, resources, (SELECT MIN(last_access) FROM resource) FROM usage"))
            guard let row else { throw StoreIndexError.missingUsage }
            return EvictionPlanner.Usage(
                bytes: row[0], entries: row[1],
                oldestAccess: (row[2] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Calls `body` with a function that gives the resources eviction may choose (every one not
    /// pinned, with its cached bytes), least recently used first, read from the index only as
    /// far as `body` asks (schema v5 orders them).
    ///
    /// An asset's playlists, keys and init sections are needed as long as any of its segments
    /// is cached, so each counts as used whenever any resource of its asset last was, and comes
    /// in that place.
    func withEvictionCandidates<T>(_ body: (_ next: () throws -> EvictionPlanner.Candidate?) throws -> T) throws -> T {
        try pool.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT key, last_access, (SELECT COALESCE(SUM("end" - start), 0) FROM span WHERE resource_id = resource.id)
                    FROM resource WHERE pinned = 0 ORDER BY last_access, key
                    """)
            var stored: EvictionPlanner.Candidate?
            // Candidates whose asset was used after them, in the order of that use.
            var later: [EvictionPlanner.Candidate] = []
            func next() throws -> EvictionPlanner.Candidate? {
                while true {
                    if stored == nil, let row = try rows.next() {
                        stored = EvictionPlanner.Candidate(
                            key: ResourceKey(row[0]), bytes: row[2],
                            lastAccess: Date(timeIntervalSince1970: row[1]), isProtected: false)
                    }
                    guard var candidate = stored else { return later.isEmpty ? nil : later.removeFirst() }
                    if let first = later.first, first.lastAccess <= candidate.lastAccess { return later.removeFirst() }
                    stored = nil
                    guard let use = try Self.assetUse(of: candidate.key, db), use > candidate.lastAccess else { return candidate }
                    candidate.lastAccess = use
                    later.insert(candidate, at: later.firstIndex { $0.lastAccess > use } ?? later.endIndex)
                }
            }
            return try body(next)
        }
    }

    /// The last use of any resource of the assets whose structure `key` is (a top or media
    /// playlist, a key, an init section); `nil` for a resource that is none of these.
    private static func assetUse(of key: ResourceKey, _ db: Database) throws -> Date? {
        let lastUse = try Double.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT MAX(r.last_access) FROM asset_member m JOIN resource r ON r.key = m.key
                    WHERE m.asset_id IN (
                        SELECT id FROM asset WHERE key = ?1
                        UNION SELECT asset_id FROM asset_playlist WHERE key = ?1
                        UNION SELECT asset_id FROM asset_member WHERE key = ?1 AND role != 'segment'
                    )
                    """), arguments: [key.rawValue])
        return lastUse.map(Date.init(timeIntervalSince1970:))
    }
}

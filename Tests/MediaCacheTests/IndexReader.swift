import Foundation
import GRDB
import MediaCache

/// Reads the store's SQLite index directly, as a crash would leave it: only what was
/// committed, none of what a live store holds in memory.
struct IndexReader {
    let path: String

    init(_ fixture: StoreFixture) {
        path = fixture.directory.path + "/index.sqlite"
    }

    func spans(of key: ResourceKey) throws -> [ByteRange] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT start, "end" FROM span JOIN resource ON resource.id = span.resource_id
                    WHERE resource.key = ? ORDER BY start
                    """, arguments: [key.rawValue]
            ).map { ByteRange($0["start"], $0["end"]) }
        }
    }
}

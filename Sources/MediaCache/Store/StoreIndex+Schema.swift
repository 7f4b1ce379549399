import GRDB

extension StoreIndex {
    /// The index schema. Ids are never reused (AUTOINCREMENT), so a data file left behind by
    /// a crash can never be mistaken for a newer resource's file.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE resource (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    key TEXT NOT NULL UNIQUE,
                    url TEXT NOT NULL,
                    total_length INTEGER CHECK (total_length IS NULL OR total_length > 0),
                    mime_type TEXT,
                    accepts_ranges INTEGER NOT NULL,
                    etag TEXT,
                    last_modified TEXT,
                    generation INTEGER NOT NULL,
                    pinned INTEGER NOT NULL DEFAULT 0,
                    last_access REAL NOT NULL
                );
                CREATE TABLE span (
                    resource_id INTEGER NOT NULL REFERENCES resource(id) ON DELETE CASCADE,
                    start INTEGER NOT NULL,
                    "end" INTEGER NOT NULL CHECK ("end" > start),
                    PRIMARY KEY (resource_id, start)
                ) WITHOUT ROWID;
                CREATE INDEX resource_last_access ON resource(last_access);
                """)
        }
        // v2: when the origin last confirmed each resource (nothing is known of resources
        // stored before, so they count as never confirmed), and where it answered from after
        // redirects.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE resource ADD COLUMN validated_at REAL;
                ALTER TABLE resource ADD COLUMN final_url TEXT;
                """)
        }
        return migrator
    }
}

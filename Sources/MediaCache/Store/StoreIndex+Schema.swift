import GRDB

extension StoreIndex {
    /// The index schema. Ids are never reused (AUTOINCREMENT), so a data file left behind by
    /// a crash can never be mistaken for a newer resource's file.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
                    ALTER TABLE resource ADD COLUMN validated_at REAL;
                    ALTER TABLE resource ADD COLUMN final_url TEXT;
                    """)
        }
        // v3: HLS assets. An asset is named by its top playlist (the multivariant playlist, or
        // a media playlist played on its own); it lists its media playlists and, per playlist,
        // the segments, keys and init sections they name. Members are recorded by key, so they
        // may be listed before they are stored, and stay listed after they are evicted.
        migrator.registerMigration("v3") { db in
            try db.execute(
                sql: """
                    CREATE TABLE asset (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        key TEXT NOT NULL UNIQUE,
                        url TEXT NOT NULL
                    );
                    CREATE TABLE asset_playlist (
                        asset_id INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        url TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        recorded_generation INTEGER,
                        PRIMARY KEY (asset_id, key)
                    );
                    CREATE INDEX asset_playlist_key ON asset_playlist(key);
                    CREATE TABLE asset_member (
                        asset_id INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                        playlist_key TEXT NOT NULL,
                        key TEXT NOT NULL,
                        role TEXT NOT NULL,
                        duration REAL,
                        range_start INTEGER,
                        range_end INTEGER
                    );
                    CREATE UNIQUE INDEX asset_member_identity ON asset_member(asset_id, playlist_key, key, IFNULL(range_start, -1));
                    CREATE INDEX asset_member_key ON asset_member(key);
                    """)
        }
        // v4: offline downloads. A download is one row (its selection and resolved playlists
        // as JSON the download manager owns), and the resources it fetched and pinned.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
                    CREATE TABLE download (
                        id TEXT PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        url TEXT NOT NULL,
                        title TEXT NOT NULL,
                        selection TEXT NOT NULL,
                        state TEXT NOT NULL,
                        error TEXT,
                        bytes_done INTEGER NOT NULL DEFAULT 0,
                        bytes_expected INTEGER,
                        expected_is_estimate INTEGER NOT NULL DEFAULT 1,
                        created REAL NOT NULL,
                        updated REAL NOT NULL
                    );
                    CREATE TABLE download_member (
                        download_id TEXT NOT NULL REFERENCES download(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        PRIMARY KEY (download_id, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX download_member_key ON download_member(key);
                    """)
        }
        // v5: the cached bytes and the resources in the index, kept by triggers in the same
        // transactions as the rows they count, so that a commit checks the eviction limits
        // without reading every resource (``StoreIndex/usage()``); and the resources eviction
        // may choose in the order it takes them (``StoreIndex/withEvictionCandidates(_:)``).
        migrator.registerMigration("v5") { db in
            try db.execute(
                sql: """
                    CREATE INDEX resource_eviction_order ON resource(pinned, last_access, key);
                    CREATE TABLE usage (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        bytes INTEGER NOT NULL,
                        resources INTEGER NOT NULL
                    );
                    INSERT INTO usage VALUES (
                        1, (SELECT COALESCE(SUM("end" - start), 0) FROM span), (SELECT COUNT(*) FROM resource));
                    CREATE TRIGGER usage_span_insert AFTER INSERT ON span BEGIN
                        UPDATE usage SET bytes = bytes + (NEW."end" - NEW.start);
                    END;
                    CREATE TRIGGER usage_span_delete AFTER DELETE ON span BEGIN
                        UPDATE usage SET bytes = bytes - (OLD."end" - OLD.start);
                    END;
                    CREATE TRIGGER usage_span_update AFTER UPDATE OF start, "end" ON span BEGIN
                        UPDATE usage SET bytes = bytes - (OLD."end" - OLD.start) + (NEW."end" - NEW.start);
                    END;
                    CREATE TRIGGER usage_resource_insert AFTER INSERT ON resource BEGIN
                        UPDATE usage SET resources = resources + 1;
                    END;
                    CREATE TRIGGER usage_resource_delete AFTER DELETE ON resource BEGIN
                        UPDATE usage SET resources = resources - 1;
                    END;
                    """)
        }
        return migrator
    }
}

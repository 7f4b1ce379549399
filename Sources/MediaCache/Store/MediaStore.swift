import Foundation
import GRDB

/// The crash-safe sparse media store: one sparse data file per resource and a SQLite index
/// of the byte spans each holds.
///
/// Bytes written land in the data file at once and are readable in this process at once; they
/// are recorded in the index only after the data file was flushed, in batches (by size, by
/// time and on ``close()``). After a crash the index may know less than the files hold, never
/// more; a journal of the writes since the last commit lets the next open recover what a
/// killed process wrote (see `SpanJournal`). One store owns a directory at a time.
///
/// ```swift
/// let store = try MediaStore.open(at: "/var/cache/app/media")
/// let url = URL(string: "https://cdn.example/clip.mp4")!
/// let generation = try store.setContentInfo(ContentInfo(totalLength: 1_000_000, mimeType: "video/mp4"), for: url)
/// let key = store.key(for: url)
/// try store.write(chunk, at: 0, to: key, generation: generation)
/// let header = try store.read(ByteRange(0, 1024), from: key)
/// try store.close()
/// ```
public final class MediaStore: Sendable {
    struct Catalog {
        var slots: [ResourceKey: ResourceSlot] = [:]
        /// The keys the index holds, so that a key it does not hold is not looked up.
        var indexed: IndexedKeys
        var leases: [ResourceKey: Int] = [:]
        /// Set by the first ``close()``; the final commit still runs.
        var isClosing = false
        /// Set once files and the index are closed.
        var isClosed = false
    }

    struct CommitSchedule {
        var pendingBytes: Int64 = 0
        var firstUnrecordedChange: Date?
        /// Whether a commit of full batches is queued or running.
        var isBatchCommitQueued = false
        /// Whether a checkpoint of the index is queued or running.
        var isCheckpointQueued = false
    }

    /// The cache directory: the one given to ``open(at:configuration:)``, or for an encrypted
    /// store on a directory written with another key (or none) the one it keeps apart inside it.
    public let directory: String
    /// The configuration the store was opened with.
    public let configuration: MediaStore.Configuration

    let index: StoreIndex
    /// Spans written since the last commit, for recovery after a kill; `nil` when the platform
    /// cannot name its boot session.
    let journal: SpanJournal?
    let catalog: Locked<Catalog>
    let schedule = Locked(CommitSchedule())
    let commitLock = NSLock()
    /// Held while a resource is created (``slot(for:creatingFrom:info:)``), outside the catalog lock.
    let creationLock = NSLock()
    /// Where background commits run: a thread of their own, because a commit waits for data
    /// files to be flushed, tens of milliseconds at a time. On Swift's cooperative pool (one
    /// thread per core) that wait would stall every fetch and reader meanwhile.
    let commitQueue = DispatchQueue(label: "mediacache.store.commit")
    /// Where the index's checkpoints run (``checkpointIndexSoonIfLarge()``): beside commits,
    /// which under many new resources take seconds, so that the log is copied as it grows.
    let checkpointQueue = DispatchQueue(label: "mediacache.store.checkpoint")
    private let lock: DirectoryLock
    private let flusher = Locked<Task<Void, Never>?>(nil)

    var fileSystem: any FileSystem { configuration.fileSystem }
    var clock: any MediaCacheClock { configuration.clock }
    /// Where the data files of pinned resources live, and of every resource without a
    /// ``MediaStore/Configuration/purgeableDirectory``.
    var dataDirectory: String { directory + "/data" }
    /// Where the data files of resources that are not pinned live.
    let purgeableDataDirectory: String

    private init(
        directory: String, purgeableDataDirectory: String, configuration: MediaStore.Configuration, lock: DirectoryLock,
        index: StoreIndex, keys: [ResourceKey]
    ) {
        self.directory = directory
        self.purgeableDataDirectory = purgeableDataDirectory
        self.configuration = configuration
        self.lock = lock
        self.index = index
        catalog = Locked(Catalog(indexed: IndexedKeys(keys)))
        journal = BootSession.current().map {
            SpanJournal(directory: directory, bootSession: $0, fileSystem: configuration.fileSystem, logger: configuration.logger)
        }
    }

    /// Opens (creating when needed) the store in `directory`, takes ownership of it, recovers
    /// what a killed process wrote but did not commit, reconciles the index with the data files
    /// and applies the eviction policy.
    ///
    /// An encrypted store (``MediaStore/Configuration/encryption``) opens only a directory written with
    /// its key. On one written with another key, or without encryption, it opens empty in a
    /// directory of its own inside it and logs why, leaving the other cache as it is; so does an
    /// unencrypted store on an encrypted directory. ``directory`` is where it opened.
    ///
    /// - Throws: ``MediaStoreError/directoryInUse(path:ownerPID:)`` when another store owns it.
    public static func open(
        at directory: String,
        configuration: MediaStore.Configuration = MediaStore.Configuration()
    ) throws(MediaStoreError) -> MediaStore {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        do {
            try configuration.fileSystem.createDirectory(at: root)
        } catch {
            throw MediaStoreError.file(error, key: nil)
        }
        if let purgeable = configuration.purgeableDirectory {
            try adoptStore(from: URL(fileURLWithPath: purgeable).standardizedFileURL.path, into: root, logger: configuration.logger)
        }
        let directory = try KeyedDirectory.resolve(
            root, encryption: configuration.encryption, fileSystem: configuration.fileSystem,
            logger: configuration.logger)
        // The purgeable folder mirrors the store's: a keyed store's files there sit in the
        // same `key-…` folder.
        let purgeableData =
            configuration.purgeableDirectory.map {
                URL(fileURLWithPath: $0).standardizedFileURL.path + directory.dropFirst(root.count) + "/data"
            } ?? directory + "/data"
        do {
            try configuration.fileSystem.createDirectory(at: directory + "/data")
            try configuration.fileSystem.createDirectory(at: purgeableData)
        } catch {
            throw MediaStoreError.file(error, key: nil)
        }
        let lock = try DirectoryLock.acquire(directory: directory)
        let index: StoreIndex
        let keys: [ResourceKey]
        do {
            index = try StoreIndex(path: directory + "/index.sqlite")
            keys = try index.allKeys()
        } catch {
            lock.release()
            throw .index(operation: "open", underlying: error)
        }
        let store = MediaStore(
            directory: directory, purgeableDataDirectory: purgeableData, configuration: configuration, lock: lock,
            index: index, keys: keys)
        do {
            try store.placeDataFiles()
            try store.adoptJournal()
            try store.reconcile()
            try store.evict()
        } catch {
            try? store.close()
            throw error
        }
        store.startFlusher()
        return store
    }

    /// The key `url` is stored under, from the configured normaliser.
    public func key(for url: URL) -> ResourceKey {
        configuration.keyNormalizer.key(for: url)
    }

    /// The stored resource for `key`, or `nil` when none is stored.
    public func record(for key: ResourceKey) throws(MediaStoreError) -> ResourceRecord? {
        guard let slot = try existingSlot(for: key) else { return nil }
        return slot.state.withLock { state in
            ResourceRecord(
                key: key, url: slot.url, contentInfo: state.info, generation: state.generation,
                isPinned: state.isPinned, available: state.available, validatedAt: state.validatedAt)
        }
    }

    /// The byte ranges of `key` that can be read now (the in-process watermark).
    public func availableRanges(for key: ResourceKey) throws(MediaStoreError) -> ByteRangeSet {
        try record(for: key)?.available ?? ByteRangeSet()
    }

    /// Records what the origin said about `url`, creating the resource when new.
    ///
    /// When `info` describes a different version than the one stored (see
    /// ``ContentInfo/isDifferentVersion(from:)``) the resource moves to a new generation and
    /// its cached bytes are dropped. Fields `info` leaves unset keep their stored values.
    ///
    /// - Returns: The generation that bytes of this content must be written with.
    @discardableResult
    public func setContentInfo(_ info: ContentInfo, for url: URL) throws(MediaStoreError) -> Generation {
        let (slot, isOtherVersion) = try slot(recording: info, for: url)
        if isOtherVersion { return try startNewGeneration(of: slot, info: info, validatedAt: clock.now()) }
        return try merge(info, into: slot)
    }

    /// Creates the resource a record of ``newRecord(_:for:)`` stood for, from the same `info`,
    /// and returns the generation its bytes go to. `nil` when the store has recorded another
    /// version meanwhile: that record came from a later answer, and it stays.
    func createAnnounced(_ info: ContentInfo, for url: URL) throws(MediaStoreError) -> Generation? {
        let (slot, isOtherVersion) = try slot(recording: info, for: url)
        return isOtherVersion ? nil : try merge(info, into: slot)
    }

    /// The slot `info` is recorded in for `url`, the resource created from it when new, and
    /// whether the slot holds another version than `info` names.
    private func slot(recording info: ContentInfo, for url: URL) throws(MediaStoreError) -> (ResourceSlot, isOtherVersion: Bool) {
        let key = key(for: url)
        try check(info, for: key)
        let slot = try slot(for: key, creatingFrom: url, info: info)
        return (slot, slot.state.withLock { $0.info.isDifferentVersion(from: info) })
    }

    /// Adds what `info`, the same version as `slot`'s record, knows and the record does not;
    /// returns the slot's generation.
    private func merge(_ info: ContentInfo, into slot: ResourceSlot) throws(MediaStoreError) -> Generation {
        let (stored, generation) = slot.state.withLock { ($0.info, $0.generation) }
        let merged = stored.merged(with: info)
        guard merged != stored else { return generation }
        try indexOperation("update content info") { try index.updateContentInfo(id: slot.id, info: merged) }
        slot.state.withLock { $0.info = merged }
        return generation
    }

    /// The record ``setContentInfo(_:for:)`` creates for `url` when the store holds nothing
    /// of it, made without touching the index: a loader answers a miss's head from it while
    /// the resource is being created.
    func newRecord(_ info: ContentInfo, for url: URL) throws(MediaStoreError) -> ResourceRecord {
        let key = key(for: url)
        try check(info, for: key)
        return ResourceRecord(
            key: key, url: url.absoluteString, contentInfo: info, generation: .initial, isPinned: false,
            available: ByteRangeSet(), validatedAt: clock.now())
    }

    private func check(_ info: ContentInfo, for key: ResourceKey) throws(MediaStoreError) {
        if let length = info.totalLength, length <= 0 {
            throw .invalidContentInfo(key: key, reason: "total length \(length) is not positive")
        }
    }

    /// Keeps `key` from eviction until the returned lease ends.
    ///
    /// Loaders hold a lease while a reader or a fetch is active on the resource.
    public func beginUse(of key: ResourceKey) -> StoreLease {
        catalog.withLock { $0.leases[key, default: 0] += 1 }
        return StoreLease { [self] in
            catalog.withLock { catalog in
                let count = (catalog.leases[key] ?? 1) - 1
                catalog.leases[key] = count > 0 ? count : nil
            }
        }
    }

    /// Records pending spans and access times, then releases the directory. Later calls throw
    /// ``MediaStoreError/closed``.
    public func close() throws(MediaStoreError) {
        flusher.withLock { $0?.cancel() }
        let isFirstClose = catalog.withLock { catalog in
            defer { catalog.isClosing = true }
            return !catalog.isClosing
        }
        guard isFirstClose else { return }
        defer { shutDown() }
        try commitPending()
    }

    /// Closes every file and the index and releases the directory; holds the commit lock so
    /// that no background commit runs against a closed index.
    private func shutDown() {
        commitLock.lock()
        defer { commitLock.unlock() }
        let slots = catalog.withLock { catalog in
            catalog.isClosed = true
            defer { catalog.slots = [:] }
            return Array(catalog.slots.values)
        }
        for slot in slots { slot.io.withExclusiveLock { slot.retire() } }
        journal?.close()
        // A checkpoint under way ends before the index closes; a queued one finds it closed.
        checkpointQueue.sync {}
        try? index.close()
        lock.release()
    }

    deinit {
        try? close()
    }

    private func startFlusher() {
        let interval = configuration.commitInterval
        let clock = clock
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let store = self else { return }
                await store.onCommitQueue { store.commitOnTimer() }
            }
        }
        flusher.withLock { $0 = task }
    }

    func indexOperation<Result>(_ operation: String, _ body: () throws -> Result) throws(MediaStoreError) -> Result {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            // SQLite found no room for the index or its log: the same full disk the data files
            // report as ENOSPC, and the same answer (free space), so the same error.
            throw .diskFull(key: nil, underlying: IOError(operation: "index \(operation)", path: directory + "/index.sqlite", code: ENOSPC))
        } catch {
            throw .index(operation: operation, underlying: error)
        }
    }

    /// The data file of resource `id`: in ``dataDirectory`` when `pinned`, else in
    /// ``purgeableDataDirectory``.
    func dataPath(for id: Int64, pinned: Bool) -> String {
        "\(pinned ? dataDirectory : purgeableDataDirectory)/\(id).data"
    }

    /// How many bytes of a resource a data file of `size` bytes holds: what the index may claim.
    func capacity(ofDataFileSize size: Int64) -> Int64 {
        configuration.encryption == nil ? size : SealedDataFile.plaintextCapacity(ofFileSize: size)
    }
}

extension ContentInfo {
    /// `self` updated with every field `newer` sets; range support always follows `newer`.
    func merged(with newer: ContentInfo) -> ContentInfo {
        ContentInfo(
            totalLength: newer.totalLength ?? totalLength, mimeType: newer.mimeType ?? mimeType,
            acceptsRanges: newer.acceptsRanges, etag: newer.etag ?? etag,
            lastModified: newer.lastModified ?? lastModified, finalURL: newer.finalURL ?? finalURL)
    }
}

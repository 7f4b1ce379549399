import Foundation

/// The in-memory state of one stored resource while this process uses it.
///
/// Lock order: the store's catalog, then ``io``, then ``state``. Byte reads and writes hold
/// ``io`` shared; changing the generation or removing the resource holds it exclusively, so
/// no write of an old generation can land after the file was cut for a new one.
final class ResourceSlot: Sendable {
    struct State {
        var info: ContentInfo
        var generation: Generation
        var isPinned: Bool
        /// Spans recorded in the index.
        var committed: ByteRangeSet
        /// Spans written to the data file but not yet recorded.
        var pending = ByteRangeSet()
        /// `committed ∪ pending`: what readers in this process may read (the watermark).
        var available: ByteRangeSet
        /// The latest access not yet recorded in the index.
        var unrecordedAccess: Date?
        var lastAccess: Date
        /// When the origin last confirmed ``info``; `nil` when never recorded.
        var validatedAt: Date?
        var isRemoved = false
        var file: (any RandomAccessFile)?
        /// The data file as an encrypted store reads and writes it.
        var sealed: SealedDataFile?
        var fileUsers = 0
        /// Where the data file is: it moves when the resource is pinned or unpinned.
        var path: String
    }

    let id: Int64
    let key: ResourceKey
    let url: String
    let io = ReadWriteLock()
    let state: Locked<State>

    init(resource: StoreIndex.Resource, committed: ByteRangeSet, path: String) {
        id = resource.id
        key = resource.key
        url = resource.url
        state = Locked(
            State(
                info: resource.info, generation: resource.generation, isPinned: resource.isPinned,
                committed: committed, available: committed, lastAccess: resource.lastAccess,
                validatedAt: resource.validatedAt, path: path))
    }

    /// Where the data file is now.
    var path: String { state.withLock(\.path) }

    /// Runs `body` with the open data file, opening it on first use.
    func withFile<Result>(
        on fileSystem: any FileSystem,
        _ body: (any RandomAccessFile) throws(IOError) -> Result
    ) throws(MediaStoreError) -> Result {
        let (file, _) = try use(fileSystem, encryption: nil)
        defer { state.withLock { $0.fileUsers -= 1 } }
        do throws(IOError) { return try body(file) } catch { throw MediaStoreError.file(error, key: key) }
    }

    /// Runs `body` with the open data file of an encrypted store, opening it on first use.
    func withSealedFile<Result>(
        on fileSystem: any FileSystem, encryption: StoreEncryption,
        _ body: (SealedDataFile) throws(IOError) -> Result
    ) throws(MediaStoreError) -> Result {
        let (_, sealed) = try use(fileSystem, encryption: encryption)
        defer { state.withLock { $0.fileUsers -= 1 } }
        guard let sealed else { preconditionFailure("an encrypted store's file opens sealed") }
        do throws(IOError) { return try body(sealed) } catch { throw MediaStoreError.file(error, key: key) }
    }

    /// The open data file (sealed too when `encryption` is given), counted as in use.
    private func use(
        _ fileSystem: any FileSystem, encryption: StoreEncryption?
    ) throws(MediaStoreError)
        -> (any RandomAccessFile, SealedDataFile?)
    {
        try state.withLock { state throws(MediaStoreError) -> (any RandomAccessFile, SealedDataFile?) in
            guard !state.isRemoved else { throw MediaStoreError.unknownResource(key) }
            do throws(IOError) {
                let file: any RandomAccessFile
                if let open = state.file {
                    file = open
                } else {
                    file = try fileSystem.openFile(at: state.path)
                    state.file = file
                }
                if let encryption, state.sealed == nil {
                    state.sealed = try SealedDataFile(
                        file: file, path: state.path, encryption: encryption, id: id,
                        generation: state.generation)
                }
                state.fileUsers += 1
                return (file, state.sealed)
            } catch {
                throw MediaStoreError.file(error, key: key)
            }
        }
    }

    /// Closes the data file when nobody is using it, nothing written awaits a commit and no
    /// byte waits in memory for the rest of its encrypted block.
    func closeFileIfIdle() {
        state.withLock { state in
            guard state.fileUsers == 0, state.pending.isEmpty, state.sealed?.hasUnsealedBytes != true,
                let file = state.file
            else { return }
            file.close()
            state.file = nil
            state.sealed = nil
        }
    }

    /// Closes the data file, which the next use opens again; the caller holds ``io`` exclusively.
    func closeFile() {
        state.withLock { state in
            state.file?.close()
            state.file = nil
            state.sealed = nil
        }
    }

    /// Marks the slot removed and closes its file; the caller holds ``io`` exclusively.
    func retire() {
        state.withLock { $0.isRemoved = true }
        closeFile()
    }
}

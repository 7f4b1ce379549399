/// What went wrong in a ``MediaStore`` operation, for which resource, and why.
public enum MediaStoreError: Error, CustomStringConvertible {
    /// The device is full; the write to `key` stored nothing and the index is unchanged.
    case diskFull(key: ResourceKey?, underlying: IOError)
    /// A file operation failed; the operation changed nothing the index records.
    case io(key: ResourceKey?, underlying: IOError)
    /// The SQLite index could not be read or updated; the index is as it was.
    case index(operation: String, underlying: any Error)
    /// Another process (or another store in this process) owns the cache directory.
    case directoryInUse(path: String, ownerPID: Int32?)
    /// No resource with this key is stored.
    case unknownResource(ResourceKey)
    /// Some of the requested bytes are not cached.
    case notCached(key: ResourceKey, missing: [ByteRange])
    /// The bytes were produced for a generation the resource no longer has.
    case staleGeneration(key: ResourceKey, written: Generation, current: Generation)
    /// The origin's description of the resource cannot be stored as it is.
    case invalidContentInfo(key: ResourceKey, reason: String)
    /// A write reaches past the resource's known total length.
    case beyondEnd(key: ResourceKey, range: ByteRange, totalLength: Int64)
    /// The data file holds fewer bytes than the index records; the missing spans were dropped.
    case dataMissing(key: ResourceKey, range: ByteRange)
    /// The store was closed.
    case closed
    /// The cache directory was opened for reading only (see ``StoreSnapshot``).
    case readOnly(path: String)

    /// Whether the device or the user's quota is full: freeing space, not retrying, helps.
    public var isDiskFull: Bool {
        if case .diskFull = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .diskFull(let key, let underlying):
            return "disk full while writing \(key.map { "resource \($0)" } ?? "the cache"): \(underlying)"
        case .io(let key, let underlying):
            return "I/O error on \(key.map { "resource \($0)" } ?? "the cache"): \(underlying)"
        case .index(let operation, let underlying):
            return "cache index \(operation) failed: \(underlying)"
        case .directoryInUse(let path, let ownerPID):
            let owner = ownerPID.map { "process \($0)" } ?? "another process"
            return "cache directory \(path) is in use by \(owner); stop it or choose another --cache-dir"
        case .unknownResource(let key):
            return "no cached resource \(key)"
        case .notCached(let key, let missing):
            return "resource \(key) is missing bytes \(missing.map(\.description).joined(separator: ", "))"
        case .staleGeneration(let key, let written, let current):
            return "resource \(key) changed (\(written) -> \(current)); bytes of the old version were not stored"
        case .invalidContentInfo(let key, let reason):
            return "invalid content information for \(key): \(reason)"
        case .beyondEnd(let key, let range, let totalLength):
            return "write \(range) to \(key) reaches past its length \(totalLength)"
        case .dataMissing(let key, let range):
            return "data file of \(key) lacks \(range) recorded in the index; the span was dropped"
        case .closed:
            return "the cache store is closed"
        case .readOnly(let path):
            return "the cache directory \(path) is open for reading only; run this as a user who may write it"
        }
    }
}

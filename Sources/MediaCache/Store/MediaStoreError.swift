/// What went wrong in a ``MediaStore`` operation, for which resource, and why.
///
/// A failed operation changes nothing the index records. ``isDiskFull`` tells the failure
/// that freeing space, not retrying, mends:
///
/// ```swift
/// do {
///     try store.write(bytes, at: offset, to: key, generation: generation)
/// } catch  where error.isDiskFull {
///     // free space; retrying will not help
/// } catch  where error.code == .readOnly {
///     print(error)   // the cache directory … is open for reading only; run this as …
/// }
/// ```
public struct MediaStoreError: Error, CustomStringConvertible {
    /// The kinds of store failure.
    public typealias Code = ErrorCode<MediaStoreError>

    /// What kind of failure it is.
    public let code: Code
    /// What happened, and what to do when something can be done.
    public let message: String
    /// The resource concerned, when the operation had one.
    public let key: ResourceKey?
    /// The cache directory, for the codes `directoryInUse` and `readOnly`.
    public let path: String?
    /// The byte ranges concerned: those not cached (`notCached`), the write past the end
    /// (`beyondEnd`), the span dropped (`dataMissing`).
    public let ranges: [ByteRange]
    /// The process that owns the directory, for the code `directoryInUse`, when it is known.
    public let ownerPID: Int32?
    /// The file or database error that caused this one.
    public let underlying: (any Error)?

    private init(
        _ code: Code, _ message: String, key: ResourceKey? = nil, path: String? = nil, ranges: [ByteRange] = [],
        ownerPID: Int32? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.key = key
        self.path = path
        self.ranges = ranges
        self.ownerPID = ownerPID
        self.underlying = underlying
    }

    /// Whether the device or the user's quota is full: freeing space, not retrying, helps.
    public var isDiskFull: Bool { code == .diskFull }

    /// The file error that caused this one, when it was a file operation.
    public var ioError: IOError? { underlying as? IOError }

    public var description: String { message }
}

extension MediaStoreError {
    /// The device is full; the write to `key` stored nothing and the index is unchanged.
    public static func diskFull(key: ResourceKey?, underlying: IOError) -> Self {
        Self(
            .diskFull, "disk full while writing \(Self.subject(key)): \(underlying); free space, then try again", key: key,
            underlying: underlying)
    }

    /// A file operation failed; the operation changed nothing the index records.
    public static func io(key: ResourceKey?, underlying: IOError) -> Self {
        Self(.io, "I/O error on \(Self.subject(key)): \(underlying)", key: key, underlying: underlying)
    }

    /// A file error as a full disk or another I/O failure.
    package static func file(_ error: IOError, key: ResourceKey?) -> Self {
        error.isDiskFull ? .diskFull(key: key, underlying: error) : .io(key: key, underlying: error)
    }

    /// The SQLite index could not be read or updated; the index is as it was.
    public static func index(operation: String, underlying: any Error) -> Self {
        Self(.index, "cache index \(operation) failed: \(underlying)", underlying: underlying)
    }

    /// Another process (or another store in this process) owns the cache directory.
    public static func directoryInUse(path: String, ownerPID: Int32?) -> Self {
        let owner = ownerPID.map { "process \($0)" } ?? "another process"
        return Self(
            .directoryInUse, "cache directory \(path) is in use by \(owner); stop it or choose another --cache-dir", path: path,
            ownerPID: ownerPID)
    }

    /// No resource with this key is stored.
    public static func unknownResource(_ key: ResourceKey) -> Self {
        Self(.unknownResource, "no cached resource \(key)", key: key)
    }

    /// Some of the requested bytes are not cached.
    public static func notCached(key: ResourceKey, missing: [ByteRange]) -> Self {
        let spans = missing.map(\.description).joined(separator: ", ")
        return Self(.notCached, "resource \(key) is missing bytes \(spans)", key: key, ranges: missing)
    }

    /// The bytes were produced for a generation the resource no longer has.
    public static func staleGeneration(key: ResourceKey, written: Generation, current: Generation) -> Self {
        Self(.staleGeneration, "resource \(key) changed (\(written) -> \(current)); bytes of the old version were not stored", key: key)
    }

    /// The origin's description of the resource cannot be stored as it is.
    public static func invalidContentInfo(key: ResourceKey, reason: String) -> Self {
        Self(.invalidContentInfo, "invalid content information for \(key): \(reason)", key: key)
    }

    /// A write reaches past the resource's known total length.
    public static func beyondEnd(key: ResourceKey, range: ByteRange, totalLength: Int64) -> Self {
        Self(.beyondEnd, "write \(range) to \(key) reaches past its length \(totalLength)", key: key, ranges: [range])
    }

    /// The data file holds fewer bytes than the index records; the missing spans were dropped.
    public static func dataMissing(key: ResourceKey, range: ByteRange) -> Self {
        Self(.dataMissing, "data file of \(key) lacks \(range) recorded in the index; the span was dropped", key: key, ranges: [range])
    }

    /// The store was closed.
    public static var closed: Self { Self(.closed, "the cache store is closed") }

    /// The cache directory was opened for reading only (see ``StoreSnapshot``).
    public static func readOnly(path: String) -> Self {
        Self(.readOnly, "the cache directory \(path) is open for reading only; run this as a user who may write it", path: path)
    }

    private static func subject(_ key: ResourceKey?) -> String {
        key.map { "resource \($0)" } ?? "the cache"
    }
}

extension ErrorCode where Owner == MediaStoreError {
    /// The device or the user's quota is full.
    public static var diskFull: Self { Self("diskFull") }
    /// A file operation failed.
    public static var io: Self { Self("io") }
    /// The SQLite index could not be read or updated.
    public static var index: Self { Self("index") }
    /// Another process owns the cache directory.
    public static var directoryInUse: Self { Self("directoryInUse") }
    /// No resource with the key is stored.
    public static var unknownResource: Self { Self("unknownResource") }
    /// Some of the requested bytes are not cached.
    public static var notCached: Self { Self("notCached") }
    /// The bytes belong to a generation the resource no longer has.
    public static var staleGeneration: Self { Self("staleGeneration") }
    /// The origin's description of the resource cannot be stored.
    public static var invalidContentInfo: Self { Self("invalidContentInfo") }
    /// A write reaches past the resource's known length.
    public static var beyondEnd: Self { Self("beyondEnd") }
    /// The data file lacks bytes the index records.
    public static var dataMissing: Self { Self("dataMissing") }
    /// The store was closed.
    public static var closed: Self { Self("closed") }
    /// The cache directory is open for reading only.
    public static var readOnly: Self { Self("readOnly") }
}

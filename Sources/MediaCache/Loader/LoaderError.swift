import Foundation

/// Why a read or a content-information request failed.
///
/// An origin's failure and a store's failure come with the codes `origin` and `store`, with
/// the ``OriginError`` or ``MediaStoreError`` as ``underlying``:
///
/// ```swift
/// do {
///     let record = try await loader.contentRecord(for: url)
/// } catch {
///     if let status = error.origin?.status { print("the origin answered \(status)") }
///     else if error.isDiskFull { print("free space: \(error)") }
///     else { print(error) }
/// }
/// ```
public struct LoaderError: Error, CustomStringConvertible {
    /// The kinds of loader failure.
    public typealias Code = ErrorCode<LoaderError>

    /// What kind of failure it is.
    public let code: Code
    /// What happened, and what to do when something can be done.
    public let message: String
    /// The resource's URL, when the failure concerns one.
    public let url: URL?
    /// The resource's key, when the failure concerns a stored resource.
    public let key: ResourceKey?
    /// The resource's length, for the code `rangeNotSatisfiable`.
    public let totalLength: Int64?
    /// The most bytes the caller accepts, for the code `tooLarge`.
    public let limit: Int64?
    /// The error that caused this one: an ``OriginError`` or a ``MediaStoreError``.
    public let underlying: (any Error)?

    private init(
        _ code: Code, _ message: String, url: URL? = nil, key: ResourceKey? = nil, totalLength: Int64? = nil,
        limit: Int64? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.key = key
        self.totalLength = totalLength
        self.limit = limit
        self.underlying = underlying
    }

    /// The origin's failure, for the code `origin`.
    public var origin: OriginError? { underlying as? OriginError }

    /// The store's failure, for the code `store`.
    public var store: MediaStoreError? { underlying as? MediaStoreError }

    /// Whether the store could not keep the bytes because the disk is full.
    public var isDiskFull: Bool { store?.isDiskFull ?? false }

    public var description: String { message }
}

extension LoaderError {
    /// The origin failed: an error status, a broken transfer after every retry, or a response
    /// that contradicts the request.
    public static func origin(_ error: OriginError) -> Self {
        Self(.origin, error.message, url: error.url, underlying: error)
    }

    /// The store could not keep the bytes (for example a full disk).
    public static func store(_ error: MediaStoreError) -> Self {
        Self(.store, "cache store: \(error)", key: error.key, underlying: error)
    }

    /// The content changed on the origin while this reader was being served; the reader got
    /// only bytes of the old version and must start again to get the new one.
    public static func contentChanged(key: ResourceKey, from: Generation, to: Generation) -> Self {
        Self(.contentChanged, "\(key) changed on the origin (\(from) -> \(to)) while it was being read; read it again", key: key)
    }

    /// The request starts at or past the end of the resource.
    public static func rangeNotSatisfiable(offset: Int64, totalLength: Int64) -> Self {
        Self(
            .rangeNotSatisfiable, "offset \(offset) is not before the end of the resource (\(totalLength) bytes)",
            totalLength: totalLength)
    }

    /// A resource read whole is longer than the caller accepts.
    public static func tooLarge(url: URL, limit: Int64) -> Self {
        Self(.tooLarge, "\(url) is larger than the \(limit) bytes accepted", url: url, limit: limit)
    }

    /// The reader was cancelled.
    public static var cancelled: Self { Self(.cancelled, "the read was cancelled") }
}

extension ErrorCode where Owner == LoaderError {
    /// The origin failed; ``LoaderError/origin`` says how.
    public static var origin: Self { Self("origin") }
    /// The store could not keep the bytes; ``LoaderError/store`` says why.
    public static var store: Self { Self("store") }
    /// The content changed on the origin while it was being read.
    public static var contentChanged: Self { Self("contentChanged") }
    /// The request starts at or past the end of the resource.
    public static var rangeNotSatisfiable: Self { Self("rangeNotSatisfiable") }
    /// A resource read whole is longer than the caller accepts.
    public static var tooLarge: Self { Self("tooLarge") }
    /// The reader was cancelled.
    public static var cancelled: Self { Self("cancelled") }
}

import Foundation

/// Why a read or a content-information request failed.
public enum LoaderError: Error, CustomStringConvertible {
    /// The origin failed: an error status, a broken transfer after every retry, or a response
    /// that contradicts the request.
    case origin(OriginError)
    /// The store could not keep the bytes (for example a full disk).
    case store(MediaStoreError)
    /// The content changed on the origin while this reader was being served; the reader got
    /// only bytes of the old version and must start again to get the new one.
    case contentChanged(key: ResourceKey, from: Generation, to: Generation)
    /// The request starts at or past the end of the resource.
    case rangeNotSatisfiable(offset: Int64, totalLength: Int64)
    /// A resource read whole is longer than the caller accepts.
    case tooLarge(url: URL, limit: Int64)
    /// The reader was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .origin(let error): "\(error)"
        case .store(let error): "cache store: \(error)"
        case .contentChanged(let key, let from, let to):
            "\(key) changed on the origin (\(from) -> \(to)) while it was being read"
        case .rangeNotSatisfiable(let offset, let length):
            "offset \(offset) is not before the end of the resource (\(length) bytes)"
        case .tooLarge(let url, let limit): "\(url) is larger than the \(limit) bytes accepted"
        case .cancelled: "the read was cancelled"
        }
    }
}

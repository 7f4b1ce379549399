import Foundation

/// Why a download cannot go on.
public enum DownloadError: Error, Hashable, CustomStringConvertible {
    /// The playlist is live (no `EXT-X-ENDLIST`, not VOD): there is no end to download.
    case live(URL)
    /// The disk has less free space than the rest of the download needs.
    case insufficientSpace(needed: Int64, available: Int64)
    /// The disk filled up while the download stored its bytes; what it stored is kept, and
    /// resuming it once there is space again fetches only the rest.
    case diskFull(key: ResourceKey?, underlying: IOError)
    /// One resource could not be fetched after every retry.
    case resourceFailed(URL, reason: String)
    /// The final check found resources not stored in full.
    case incomplete([URL])
    /// No download has this identifier or URL.
    case unknown(String)

    public var description: String {
        switch self {
        case .live(let url):
            "\(url) is a live playlist; only finished (VOD) presentations can be downloaded"
        case .insufficientSpace(let needed, let available):
            "the download needs about \(needed) more bytes and the disk has \(available) free"
        case .diskFull(let key, let underlying):
            "disk full while writing \(key.map { "\($0)" } ?? "the cache") (\(underlying)); what was stored is kept: "
                + "free space, then resume the download"
        case .resourceFailed(let url, let reason):
            "\(url.lastPathComponent) (\(url)) failed: \(reason)"
        case .incomplete(let urls):
            "\(urls.count) resources are not stored in full, first \(urls.first?.absoluteString ?? "")"
        case .unknown(let name):
            "no download \(name)"
        }
    }
}

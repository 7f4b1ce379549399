import Foundation

/// Why a download cannot go on.
///
/// A running download that meets one ends `failed` with the error's message; the calls that
/// name a download throw it:
///
/// ```swift
/// let ended = try await downloads.settled(film.id)
/// if let reason = ended.state.error {
///     print(reason)   // disk full while writing …; what was stored is kept: free space, then resume …
/// }
/// do {
///     try await downloads.resume("film")
/// } catch let error as DownloadError where error.code == .unknown {
///     print(error)   // no download film
/// }
/// ```
public struct DownloadError: Error, Hashable, CustomStringConvertible {
    /// The kinds of download failure.
    public typealias Code = ErrorCode<DownloadError>

    /// What kind of failure it is.
    public let code: Code
    /// What happened, and what to do when something can be done.
    public let message: String
    /// The resources concerned: the live playlist, the resource that failed, those not stored
    /// in full.
    public let urls: [URL]
    /// The store's failure, for the code `diskFull`.
    public let store: MediaStoreError?

    private init(_ code: Code, _ message: String, urls: [URL] = [], store: MediaStoreError? = nil) {
        self.code = code
        self.message = message
        self.urls = urls
        self.store = store
    }

    /// The playlist is live (no `EXT-X-ENDLIST`, not VOD): there is no end to download.
    public static func live(_ url: URL) -> Self {
        Self(.live, "\(url) is a live playlist; only finished (VOD) presentations can be downloaded", urls: [url])
    }

    /// The disk has less free space than the rest of the download needs.
    public static func insufficientSpace(needed: Int64, available: Int64) -> Self {
        Self(
            .insufficientSpace,
            "the download needs about \(needed) more bytes and the disk has \(available) free; free space, then resume it")
    }

    /// The disk filled up while the download stored its bytes; what it stored is kept, and
    /// resuming it once there is space again fetches only the rest.
    public static func diskFull(_ error: MediaStoreError) -> Self {
        let subject = error.key.map { "\($0)" } ?? "the cache"
        let cause = error.ioError.map { "\($0)" } ?? "\(error)"
        return Self(
            .diskFull, "disk full while writing \(subject) (\(cause)); what was stored is kept: free space, then resume the download",
            store: error)
    }

    /// One resource could not be fetched after every retry.
    public static func resourceFailed(_ url: URL, reason: String) -> Self {
        Self(.resourceFailed, "\(url.lastPathComponent) (\(url)) failed: \(reason)", urls: [url])
    }

    /// The final check found resources not stored in full.
    public static func incomplete(_ urls: [URL]) -> Self {
        Self(.incomplete, "\(urls.count) resources are not stored in full, first \(urls.first?.absoluteString ?? "")", urls: urls)
    }

    /// No download has this identifier or URL.
    public static func unknown(_ name: String) -> Self {
        Self(.unknown, "no download \(name)")
    }

    public var description: String { message }

    /// Errors are equal when their code, message and URLs are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.code, lhs.message, lhs.urls) == (rhs.code, rhs.message, rhs.urls)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension ErrorCode where Owner == DownloadError {
    /// The playlist is live.
    public static var live: Self { Self("live") }
    /// The disk has less free space than the rest of the download needs.
    public static var insufficientSpace: Self { Self("insufficientSpace") }
    /// The disk filled up while the download stored its bytes.
    public static var diskFull: Self { Self("diskFull") }
    /// A resource could not be fetched after every retry.
    public static var resourceFailed: Self { Self("resourceFailed") }
    /// Resources are not stored in full.
    public static var incomplete: Self { Self("incomplete") }
    /// No download has the identifier or URL.
    public static var unknown: Self { Self("unknown") }
}

import Foundation
import MediaCache
import MediaCacheServer

/// One loading request an item's resource loader served, shaped like
/// `AVPlayerItemAccessLogEvent`.
public struct MediaCacheAccessLogEvent: Hashable, Sendable {
    /// When the request arrived.
    public var date: Date
    /// The resource's original URL.
    public var uri: String
    /// The item's session, the same for every event of one item.
    public var playbackSessionID: String
    /// Loading requests in the event: 1.
    public var numberOfMediaRequests: Int
    /// Bytes delivered to the player.
    public var numberOfBytesTransferred: Int64
    /// Of those, bytes that were cached when the request arrived.
    public var numberOfBytesFromCache: Int64
    /// Of those, bytes the origin delivered during the request.
    public var numberOfBytesFromNetwork: Int64
    /// Seconds from the request's arrival to its end.
    public var transferDuration: TimeInterval
    /// Bits per second over the transfer, `-1` when nothing was transferred.
    public var observedBitrate: Double
}

/// A loading request that failed, shaped like `AVPlayerItemErrorLogEvent`.
public struct MediaCacheErrorLogEvent: Hashable, Sendable {
    /// When it failed.
    public var date: Date
    /// The resource's original URL.
    public var uri: String
    /// The item's session.
    public var playbackSessionID: String
    /// The origin's HTTP status, or `-1` for other failures.
    public var errorStatusCode: Int
    /// The failure's type, qualified by its module: `MediaCache.LoaderError`.
    public var errorDomain: String
    /// What failed.
    public var errorComment: String?
}

/// An item's access log, like `AVPlayerItemAccessLog`: its events in order and their text in
/// the W3C Extended Log File Format.
public struct MediaCacheAccessLog: Sendable {
    /// The fields of ``extendedLogData()``.
    public static let fields = [
        "date", "time", "uri", "cs-guid", "sc-count", "bytes", "x-cache-bytes", "x-origin-bytes",
        "c-transfer-duration", "c-observed-bitrate",
    ]

    /// The events, oldest first.
    public var events: [MediaCacheAccessLogEvent]

    /// The encoding of ``extendedLogData()``: UTF-8.
    public var extendedLogDataStringEncoding: UInt { String.Encoding.utf8.rawValue }

    /// The events as W3C extended log text.
    public func extendedLogData() -> Data? {
        let entries = events.map { event -> (date: Date, values: [String?]) in
            (
                event.date,
                [
                    event.uri, event.playbackSessionID, "\(event.numberOfMediaRequests)", "\(event.numberOfBytesTransferred)",
                    "\(event.numberOfBytesFromCache)", "\(event.numberOfBytesFromNetwork)",
                    String(format: "%.3f", event.transferDuration), String(format: "%.3f", event.observedBitrate),
                ]
            )
        }
        return Data(ExtendedLogFormat.text(fields: Self.fields, entries: entries).utf8)
    }
}

/// An item's error log, like `AVPlayerItemErrorLog`.
public struct MediaCacheErrorLog: Sendable {
    /// The fields of ``extendedLogData()``.
    public static let fields = ["date", "time", "uri", "cs-guid", "status", "domain", "comment"]

    /// The events, oldest first.
    public var events: [MediaCacheErrorLogEvent]

    /// The encoding of ``extendedLogData()``: UTF-8.
    public var extendedLogDataStringEncoding: UInt { String.Encoding.utf8.rawValue }

    /// The events as W3C extended log text.
    public func extendedLogData() -> Data? {
        let entries = events.map { event -> (date: Date, values: [String?]) in
            (event.date, [event.uri, event.playbackSessionID, "\(event.errorStatusCode)", event.errorDomain, event.errorComment])
        }
        return Data(ExtendedLogFormat.text(fields: Self.fields, entries: entries).utf8)
    }
}

/// Collects an item's events as its requests end.
final class LoadingLog: Sendable {
    let sessionID = UUID().uuidString
    private let entries = Locked((access: [MediaCacheAccessLogEvent](), errors: [MediaCacheErrorLogEvent]()))

    var access: MediaCacheAccessLog { MediaCacheAccessLog(events: entries.withLock(\.access)) }
    var errors: MediaCacheErrorLog { MediaCacheErrorLog(events: entries.withLock(\.errors)) }

    func served(_ url: URL, since start: Date, fromCache: Int64, fromNetwork: Int64) {
        let duration = Date().timeIntervalSince(start)
        let total = fromCache + fromNetwork
        let event = MediaCacheAccessLogEvent(
            date: start, uri: url.absoluteString, playbackSessionID: sessionID, numberOfMediaRequests: 1,
            numberOfBytesTransferred: total, numberOfBytesFromCache: fromCache, numberOfBytesFromNetwork: fromNetwork,
            transferDuration: duration, observedBitrate: total > 0 && duration > 0 ? Double(total) * 8 / duration : -1)
        entries.withLock { $0.access.append(event) }
    }

    func failed(_ url: URL, _ error: any Error) {
        let status = (error as? LoaderError)?.origin?.status ?? -1
        let event = MediaCacheErrorLogEvent(
            date: Date(), uri: url.absoluteString, playbackSessionID: sessionID,
            errorStatusCode: status, errorDomain: String(reflecting: type(of: error)),
            errorComment: "\(error)")
        entries.withLock { $0.errors.append(event) }
    }
}

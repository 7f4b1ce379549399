import MediaCache

/// How to answer a `GET` or `HEAD` for a resource, following RFC 9110's range rules.
///
/// - `Range: bytes=a-b`, `a-` and `-n` (one range) get `206` with an exact `Content-Range`.
/// - A range starting at or past the end, or any range of an empty resource, gets `416` with
///   `Content-Range: bytes */LEN`.
/// - Several ranges, a malformed header or another unit get the whole body with `200`: a server
///   may ignore `Range` (RFC 9110 §14.2), and players never need multipart answers.
/// - `If-Range` that does not match the current validator gets the whole body with `200`.
/// - Without a known length `Range` is ignored too: no honest `Content-Range` can be written,
///   so the whole body is sent, chunked.
///
/// A range that runs to the last byte (`a-`, or `a-b` with `b` the last byte, as AVPlayer
/// writes it) is read open-ended: a player streaming "to the end" declares no need for those
/// bytes, and usually leaves long before, so the loader paces it (see
/// `MediaLoader.Configuration.initialReadahead`). A range that ends earlier, or a suffix, is a
/// declared need and is fetched exactly.
public struct RangeResponsePlan: Hashable, Sendable {
    /// The response status: 200, 206 or 416.
    public var status: Int
    /// The bytes to send, or `nil` for none (416).
    public var bytes: ByteRequest?
    /// The `Content-Range` value, if any.
    public var contentRange: String?
    /// The `Content-Length` value, when the length is known.
    public var contentLength: Int64?

    /// Plans the answer to a request with these `Range` and `If-Range` headers for the resource
    /// `info` describes (its length, when known, and its current validators).
    public init(range: String?, ifRange: String?, info: ContentInfo) {
        let total = info.totalLength
        guard let range, let total, Self.validatorMatches(ifRange, info), let spec = Self.parse(range) else {
            // Without a Range header the client asked for the whole response and will take it.
            self = RangeResponsePlan(
                status: 200, bytes: ByteRequest(offset: 0, takesAll: range == nil),
                contentRange: nil, contentLength: total)
            return
        }
        switch spec {
        case .suffix(let count) where count > 0 && total > 0:
            self = Self.partial(from: max(total - count, 0), through: total - 1, total: total, isStreaming: false)
        case .from(let first, let last) where first < total:
            self = Self.partial(from: first, through: min(last ?? total - 1, total - 1), total: total)
        default:
            self = RangeResponsePlan(status: 416, bytes: nil, contentRange: "bytes */\(total)", contentLength: 0)
        }
    }

    private init(status: Int, bytes: ByteRequest?, contentRange: String?, contentLength: Int64?) {
        self.status = status
        self.bytes = bytes
        self.contentRange = contentRange
        self.contentLength = contentLength
    }

    private static func partial(
        from first: Int64, through last: Int64, total: Int64,
        isStreaming: Bool = true
    ) -> RangeResponsePlan {
        let toTheEnd = isStreaming && last == total - 1
        return RangeResponsePlan(
            status: 206, bytes: toTheEnd ? ByteRequest(offset: first) : ByteRequest(offset: first, length: last - first + 1),
            contentRange: "bytes \(first)-\(last)/\(total)", contentLength: last - first + 1)
    }

    /// One byte range as written in a `Range` header.
    enum Spec: Equatable {
        case from(Int64, through: Int64?)
        case suffix(Int64)
    }

    /// The single byte range of a `Range` header, or `nil` when it must be ignored.
    static func parse(_ header: String) -> Spec? {
        let trimmed = HTTPFieldText.trimmed(header)
        guard HTTPFieldText.hasPrefixIgnoringCase(trimmed, "bytes=") else { return nil }
        let set = trimmed.dropFirst(6)
        guard !set.contains(","), let dash = set.firstIndex(of: "-") else { return nil }
        let firstText = HTTPFieldText.trimmed(set[..<dash])
        let lastText = HTTPFieldText.trimmed(set[set.index(after: dash)...])
        if firstText.isEmpty {
            return HTTPFieldText.decimal(lastText).map(Spec.suffix)
        }
        guard let first = HTTPFieldText.decimal(firstText) else { return nil }
        if lastText.isEmpty { return .from(first, through: nil) }
        guard let last = HTTPFieldText.decimal(lastText), last >= first else { return nil }
        return .from(first, through: last)
    }

    /// `If-Range` matches when absent, or equal to a strong entity tag or to `Last-Modified`.
    static func validatorMatches(_ ifRange: String?, _ info: ContentInfo) -> Bool {
        guard let ifRange = ifRange.map({ String(HTTPFieldText.trimmed($0)) }) else { return true }
        if ifRange.hasPrefix("\"") { return info.etag == ifRange }
        return info.lastModified == ifRange
    }
}

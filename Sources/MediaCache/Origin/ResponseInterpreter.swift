import Foundation

/// Reads an HTTP response head as an ``OriginResponse/Kind`` and ``ContentInfo``, tolerating
/// real origins: header names in any case, `200` where `206` was asked for, `Content-Length`
/// where `Content-Range` has no total, `416` at the end of the resource.
///
/// Pure, so every rule is tested without a socket; every origin (`HTTPOrigin`,
/// `URLSessionOrigin`) reads its heads through it.
public struct ResponseInterpreter: Sendable {
    /// The request the response answers.
    public var request: OriginRequest

    /// Creates an interpreter for the response to `request`.
    public init(request: OriginRequest) {
        self.request = request
    }

    /// The kind of response and what it says about the content.
    ///
    /// - Parameters:
    ///   - status: The response's status code.
    ///   - headers: Name-value pairs; names are matched case-insensitively.
    /// - Throws: ``OriginError/status(_:url:)`` for error statuses,
    ///   ``OriginError/invalidResponse(_:url:)`` for a `206` without a usable `Content-Range`.
    public func interpret(status: Int, headers: [(String, String)]) throws(OriginError) -> (OriginResponse.Kind, ContentInfo) {
        let header = { (name: String) in headers.first { HTTPFieldText.equalsIgnoringCase($0.0, name) }?.1 }
        var info = ContentInfo(
            mimeType: header("Content-Type").map { String(HTTPFieldText.trimmed($0)) },
            acceptsRanges: header("Accept-Ranges").map { HTTPFieldText.containsIgnoringCase($0, "bytes") } ?? false,
            etag: header("ETag"),
            lastModified: header("Last-Modified"))
        let contentRange = header("Content-Range").flatMap(ContentRange.init)
        switch status {
        case 206:
            guard case .bytes(let first, let last, let total)? = contentRange else {
                throw .invalidResponse("206 without a valid Content-Range (\(header("Content-Range") ?? "none"))", url: request.url)
            }
            info.acceptsRanges = true
            info.totalLength = total
            return (.partial(offset: first, length: last - first + 1), info)
        case 304 where request.ifNoneMatch != nil || request.ifModifiedSince != nil:
            return (.notModified, info)
        case 416:
            if case .unsatisfied(let total)? = contentRange { info.totalLength = total }
            return (.rangeNotSatisfiable, info)
        case 200..<300:
            if request.method == .get, request.rangeHeader != nil { info.acceptsRanges = false }
            info.totalLength = header("Content-Length").flatMap { HTTPFieldText.decimal(HTTPFieldText.trimmed($0)) }
                .flatMap { $0 > 0 ? $0 : nil }
            return (.full, info)
        default:
            throw .status(status, url: request.url)
        }
    }
}

/// A parsed `Content-Range` header value.
enum ContentRange: Equatable {
    /// `bytes first-last/total`; `total` is `nil` for `*`.
    case bytes(first: Int64, last: Int64, total: Int64?)
    /// `bytes */total`.
    case unsatisfied(total: Int64)

    init?(_ value: String) {
        let trimmed = HTTPFieldText.trimmed(value)
        guard HTTPFieldText.hasPrefixIgnoringCase(trimmed, "bytes ") else { return nil }
        let spec = HTTPFieldText.trimmed(trimmed.dropFirst(6))
        guard let slash = spec.firstIndex(of: "/") else { return nil }
        let range = spec[..<slash]
        let totalText = spec[spec.index(after: slash)...]
        let total: Int64?
        if totalText == "*" {
            total = nil
        } else {
            guard let length = HTTPFieldText.decimal(totalText) else { return nil }
            total = length
        }
        if range == "*" {
            guard let total else { return nil }
            self = .unsatisfied(total: total)
            return
        }
        guard let dash = range.firstIndex(of: "-"),
            let first = HTTPFieldText.decimal(range[..<dash]),
            let last = HTTPFieldText.decimal(range[range.index(after: dash)...])
        else { return nil }
        // A last byte of Int64.max would make the length overflow; no resource is that long.
        guard first <= last, last < .max else { return nil }
        if let total, last >= total { return nil }
        self = .bytes(first: first, last: last, total: total.flatMap { $0 > 0 ? $0 : nil })
    }
}

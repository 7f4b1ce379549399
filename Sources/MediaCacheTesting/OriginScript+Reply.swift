import Foundation
import MediaCache

extension OriginScript {
    /// What to answer one request with.
    struct Reply {
        var status: Int
        var headers: [(String, String)] = []
        /// The bytes to send and the content they come from.
        var body: (content: Content, range: Range<Int64>)?
        var misbehavior = Misbehavior()
    }

    /// Decides the answer to a request and records it.
    /// `root` is the origin's `scheme://authority`, which redirects name.
    func reply(method: String, uri: String, headers: [(String, String)], root: String) -> Reply {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        let header = { (name: String) in headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1 }
        let (reply, met) = state.withLock { state in
            let sent = Dictionary(headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { first, _ in first })
            state.requests.append(
                Request(
                    method: method, path: path, range: header("Range"), ifRange: header("If-Range"),
                    ifNoneMatch: header("If-None-Match"), headers: sent))
            return (answer(method, path: path, header: header, root: root, state: &state), state.metWaiters())
        }
        for waiter in met { waiter.continuation.resume() }
        return reply
    }

    /// The answer to a request for `path` whose fields `header` reads.
    private func answer(_ method: String, path: String, header: (String) -> String?, root: String, state: inout State) -> Reply {
        if let target = state.redirects[path] {
            return Reply(status: 302, headers: [("Location", root + target)])
        }
        if let required = state.requirements[path], header(required.name) != required.value {
            return Reply(status: 401, headers: [("WWW-Authenticate", "Bearer")])
        }
        let misbehavior = state.misbehaviors[path] ?? Misbehavior()
        var reply = Self.plan(
            method: method, rangeHeader: header("Range"), ifRange: header("If-Range"),
            conditions: (header("If-None-Match"), header("If-Modified-Since")),
            content: state.contents[path], misbehavior: misbehavior,
            failuresServed: state.failuresServed[path, default: 0])
        if reply.status == 503 { state.failuresServed[path, default: 0] += 1 }
        reply.misbehavior = misbehavior
        if misbehavior.lowercasesHeaders { reply.headers = reply.headers.map { ($0.0.lowercased(), $0.1) } }
        return reply
    }

    static func plan(
        method: String, rangeHeader: String?, ifRange: String?, conditions: (ifNoneMatch: String?, ifModifiedSince: String?),
        content: Content?, misbehavior: Misbehavior, failuresServed: Int
    ) -> Reply {
        guard let content else { return Reply(status: 404) }
        if failuresServed < misbehavior.failsFirst { return Reply(status: 503) }
        if method == "HEAD", misbehavior.refusesHead { return Reply(status: 405) }
        guard method == "GET" || method == "HEAD" else { return Reply(status: 405) }
        var headers = [("Content-Type", content.mimeType), ("ETag", content.etag), ("Last-Modified", content.lastModified)]
        // RFC 9110 §13.2.2: If-None-Match decides when present, else If-Modified-Since.
        let unchanged =
            conditions.ifNoneMatch.map { $0 == content.etag }
            ?? conditions.ifModifiedSince.map { $0 == content.lastModified } ?? false
        if unchanged { return Reply(status: 304, headers: headers) }
        if !misbehavior.omitsAcceptRanges { headers.append(("Accept-Ranges", "bytes")) }
        let total = misbehavior.chunked ? "*" : "\(content.length)"
        let isCurrent = ifRange.map { $0 == content.etag || $0 == content.lastModified } ?? true
        if let rangeHeader, !misbehavior.ignoresRange, isCurrent {
            if misbehavior.refusesRanges { return Reply(status: 416) }
            guard let range = parse(rangeHeader, length: content.length) else {
                return Reply(status: 416, headers: [("Content-Range", "bytes */\(content.length)")])
            }
            let claimed = range.lowerBound + misbehavior.shiftsContentRange
            headers.append(("Content-Range", "bytes \(claimed)-\(claimed + Int64(range.count) - 1)/\(total)"))
            if !misbehavior.chunked { headers.append(("Content-Length", "\(range.count)")) }
            return Reply(status: 206, headers: headers, body: method == "GET" ? (content, range) : nil)
        }
        if !misbehavior.chunked { headers.append(("Content-Length", "\(content.length)")) }
        return Reply(status: 200, headers: headers, body: method == "GET" ? (content, 0..<content.length) : nil)
    }

    /// `bytes=a-b`, `bytes=a-` or `bytes=-n` against `length`; `nil` when unsatisfiable.
    static func parse(_ header: String, length: Int64) -> Range<Int64>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int64(parts[1]), suffix > 0 else { return nil }
            return max(length - suffix, 0)..<length
        }
        guard let first = Int64(parts[0]), first < length else { return nil }
        let last = parts[1].isEmpty ? length - 1 : min(Int64(parts[1]) ?? -1, length - 1)
        guard last >= first else { return nil }
        return first..<(last + 1)
    }

    func countSent(_ count: Int, for path: String) {
        let met = state.withLock { state in
            state.bytesSent[path, default: 0] += Int64(count)
            return state.metWaiters()
        }
        for waiter in met { waiter.continuation.resume() }
    }
}

extension TestOrigin.Request {
    /// The bytes of a `length`-byte resource this request asks the origin for, read as the
    /// origin reads its `Range` header: all of them without one, `nil` for an unsatisfiable one.
    public func requestedBytes(of length: Int64) -> Range<Int64>? {
        guard let range else { return 0..<length }
        return OriginScript.parse(range, length: length)
    }
}

extension TestOrigin.Misbehavior {
    /// The most body bytes sent at once: small, so that a body cut short is counted to within a piece.
    static let pieceSize: Int64 = 16 << 10

    /// The length of the next piece of a body with `remaining` bytes to go, `sent` of which
    /// left already; `nil` when the connection is to close now (``dropsAfter``). Throttled
    /// pieces are a fiftieth of a second's bytes.
    func nextPiece(remaining: Int64, sent: Int64) -> Int64? {
        if let limit = dropsAfter, sent >= limit { return nil }
        var count = min(Self.pieceSize, remaining)
        if let limit = dropsAfter { count = min(count, limit - sent) }
        if let rate = bytesPerSecond { count = min(count, max(Int64(rate) / 50, 1)) }
        return count
    }

    /// How long a throttled origin takes to send `count` bytes; `nil` when it is not throttled.
    func sendingTime(of count: Int64) -> Duration? {
        bytesPerSecond.map { .nanoseconds(count * 1_000_000_000 / Int64($0)) }
    }
}

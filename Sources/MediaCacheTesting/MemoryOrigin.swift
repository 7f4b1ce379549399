import Foundation
import MediaCache

/// An origin in memory: the script a ``TestOrigin`` answers over loopback (contents,
/// misbehaviours, redirects, recorded requests and bytes sent), answered to a loader directly,
/// with no socket. Its heads are read by the core's ``ResponseInterpreter``, as every real
/// origin's are.
///
/// ```swift
/// let origin = MemoryOrigin()
/// origin.serve("/a.mp4", content: .pattern(length: 1 << 20, seed: 1))
/// origin.setMisbehavior(TestOrigin.Misbehavior(ignoresRange: true), for: "/a.mp4")
/// let loader = MediaLoader(store: store, origin: origin)
/// for try await chunk in loader.read(origin.url("/a.mp4"), ByteRequest(offset: 0)) { _ = chunk }
/// origin.bytesSent(for: "/a.mp4")    // what the loader cost the origin
/// ```
public final class MemoryOrigin: MediaOrigin, ScriptedOrigin {
    public let script: OriginScript
    /// The origin's `scheme://authority`, which its URLs start with.
    public let root: String
    /// The most redirects followed for one request.
    static let redirectLimit = 10

    /// An origin answering `script` for `root` (`http://memory.test` by default). Given a
    /// ``TestOrigin``'s script and root, it answers that origin's URLs the same way, in memory.
    public init(script: OriginScript = OriginScript(), root: String = "http://memory.test") {
        self.script = script
        self.root = root
    }

    public func url(_ path: String) -> URL {
        URL(string: root + path)!
    }

    public func fetch(_ request: OriginRequest) async throws -> sending OriginResponse {
        var url = request.url
        for _ in 0...Self.redirectLimit {
            let target = url.absoluteString.dropFirst(root.count)
            guard url.absoluteString.hasPrefix(root), target.hasPrefix("/") else {
                throw OriginError.transport("\(url) is not on \(root)", url: url)
            }
            let reply = script.reply(
                method: request.method == .head ? "HEAD" : "GET", uri: String(target),
                headers: Self.headers(of: request), root: root)
            if [301, 302, 303, 307, 308].contains(reply.status),
                let location = reply.headers.first(where: { $0.0.caseInsensitiveCompare("Location") == .orderedSame })?.1,
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            {
                url = next
                continue
            }
            if let delay = reply.misbehavior.firstByteDelay { try await Task.sleep(for: delay) }
            var answered = request
            answered.url = url
            let (kind, interpreted) = try ResponseInterpreter(request: answered).interpret(status: reply.status, headers: reply.headers)
            var info = interpreted
            if url.absoluteString != request.url.absoluteString { info.finalURL = url }
            let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
            let stream = reply.body.map { makeBody($0.content, range: $0.range, misbehavior: reply.misbehavior, path: path, url: url) }
            return OriginResponse(kind: kind, info: info, body: stream ?? .empty)
        }
        throw OriginError.invalidResponse("more than \(Self.redirectLimit) redirects", url: request.url)
    }

    /// The header fields `request` sends.
    private static func headers(of request: OriginRequest) -> [(String, String)] {
        [
            ("Range", request.rangeHeader), ("If-Range", request.ifRange), ("If-None-Match", request.ifNoneMatch),
            ("If-Modified-Since", request.ifModifiedSince),
        ].compactMap { name, value in value.map { (name, $0) } }
    }

    /// The bytes of `range` in pieces, throttled, held or cut short as `misbehavior` says, each
    /// counted as sent when handed over.
    private func makeBody(
        _ content: TestOrigin.Content, range: Range<Int64>, misbehavior: TestOrigin.Misbehavior, path: String,
        url: URL
    ) -> OriginBody {
        let position = Locked((next: range.lowerBound, sent: Int64(0), released: !misbehavior.holdsBodies))
        return OriginBody { [script] in
            if !position.withLock(\.released) {
                await withCheckedContinuation { continuation in script.hold(path) { continuation.resume() } }
                position.withLock { $0.released = true }
            }
            let (start, sent) = position.withLock { ($0.next, $0.sent) }
            guard start < range.upperBound else { return nil }
            guard let count = misbehavior.nextPiece(remaining: range.upperBound - start, sent: sent) else {
                throw OriginError.transport("the connection closed after \(sent) body bytes", url: url)
            }
            if let delay = misbehavior.sendingTime(of: count) { try await Task.sleep(for: delay) }
            position.withLock { $0 = (start + count, sent + count, true) }
            script.countSent(Int(count), for: path)
            return content.bytes(in: start..<(start + count))
        }
    }
}

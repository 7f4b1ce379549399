import Foundation

/// A test origin answering from an ``OriginScript``: what it serves and how it misbehaves is
/// set, and what it was asked and sent is read, the same way whether it answers over loopback
/// (``TestOrigin``) or in memory (``MemoryOrigin``).
public protocol ScriptedOrigin: Sendable {
    /// What the origin answers, and what it was asked and sent.
    var script: OriginScript { get }
    /// The URL of `path` on this origin.
    func url(_ path: String) -> URL
}

extension ScriptedOrigin {
    /// Serves `content` at `path`.
    public func serve(_ path: String, content: TestOrigin.Content) { script.serve(path, content: content) }

    /// Stops serving `path`: requests for it get `404`.
    public func remove(_ path: String) { script.remove(path) }

    /// Answers requests for `path` with `302 Found` to `target` (a path on this origin).
    public func redirect(_ path: String, to target: String) { script.redirect(path, to: target) }

    /// Answers `401` to requests for `path` that do not send `name` with `value`.
    public func require(_ name: String, _ value: String, for path: String) { script.require(name, value, for: path) }

    /// Replaces the bytes at `path` with a new version of the same length and a new entity tag.
    public func changeContent(of path: String) { script.changeContent(of: path) }

    /// The content served at `path` now.
    public func content(of path: String) -> TestOrigin.Content? { script.content(of: path) }

    /// Makes `path` misbehave; the default misbehaviour is none.
    public func setMisbehavior(_ misbehavior: TestOrigin.Misbehavior, for path: String) {
        script.setMisbehavior(misbehavior, for: path)
    }

    /// Sends the bodies held for `path` (``TestOrigin/Misbehavior/holdsBodies``) and holds no more.
    public func releaseBodies(of path: String) { script.releaseBodies(of: path) }

    /// Body bytes sent for `path` so far.
    public func bytesSent(for path: String) -> Int64 { script.bytesSent(for: path) }

    /// Body bytes sent for `path` once sending stopped (see ``OriginScript/settledBytesSent(for:quiet:)``).
    public func settledBytesSent(for path: String, quiet: Duration = .seconds(1)) async throws -> Int64 {
        try await script.settledBytesSent(for: path, quiet: quiet)
    }

    /// Returns once `path` has been requested `count` times in all.
    public func requested(_ path: String, count: Int = 1) async { await script.requested(path, count: count) }

    /// Returns once `count` body bytes of `path` have been sent in all.
    public func sent(_ count: Int64, of path: String) async { await script.sent(count, of: path) }

    /// Every request for `path` so far, in order.
    public func requests(for path: String) -> [TestOrigin.Request] { script.requests(for: path) }
}

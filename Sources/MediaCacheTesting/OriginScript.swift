import Foundation
import MediaCache

/// What a test origin serves and how it misbehaves, per path, and what it was asked and sent:
/// one script, answered over loopback by ``TestOrigin`` and in memory by ``MemoryOrigin``.
public final class OriginScript: Sendable {
    public typealias Content = TestOrigin.Content
    public typealias Misbehavior = TestOrigin.Misbehavior
    public typealias Request = TestOrigin.Request

    struct State {
        var contents: [String: Content] = [:]
        var misbehaviors: [String: Misbehavior] = [:]
        var failuresServed: [String: Int] = [:]
        var bytesSent: [String: Int64] = [:]
        var requests: [Request] = []
        var versions: [String: Int] = [:]
        var redirects: [String: String] = [:]
        /// A header each path answers 401 without, with the value it wants.
        var requirements: [String: (name: String, value: String)] = [:]
        /// Bodies held by ``Misbehavior/holdsBodies``, each a start of its sending.
        var heldBodies: [String: [@Sendable () -> Void]] = [:]
        /// Tasks waiting for the requests or the bytes sent to reach a point.
        var waiters: [Waiter] = []

        /// Removes and returns the waiters whose condition now holds.
        mutating func metWaiters() -> [Waiter] {
            let state = self
            let (met, waiting) = (waiters.filter { $0.isMet(state) }, waiters.filter { !$0.isMet(state) })
            waiters = waiting
            return met
        }
    }

    /// A task waiting until `isMet` holds of what was requested and sent.
    struct Waiter {
        let isMet: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    let state = Locked(State())

    /// An empty script: every path answers `404`.
    public init() {}

    /// Serves `content` at `path`.
    package func serve(_ path: String, content: Content) {
        state.withLock { $0.contents[path] = content }
    }

    /// Stops serving `path`: requests for it get `404`.
    package func remove(_ path: String) {
        state.withLock { $0.contents[path] = nil }
    }

    /// Answers requests for `path` with `302 Found` to `target` (a path on this server).
    package func redirect(_ path: String, to target: String) {
        state.withLock { $0.redirects[path] = target }
    }

    /// Answers `401` to requests for `path` that do not send `name` with `value`.
    package func require(_ name: String, _ value: String, for path: String) {
        state.withLock { $0.requirements[path] = (name, value) }
    }

    /// Replaces the bytes at `path` with a new version of the same length and a new entity tag.
    package func changeContent(of path: String) {
        state.withLock { state in
            guard let old = state.contents[path] else { return }
            let version = state.versions[path, default: 0] + 1
            state.versions[path] = version
            var content = Content.pattern(length: old.length, seed: 0xC0FFEE &+ UInt64(version), mimeType: old.mimeType)
            content.lastModified = "Tue, 03 Nov 2026 10:00:0\(version % 10) GMT"
            state.contents[path] = content
        }
    }

    /// The content served at `path` now.
    package func content(of path: String) -> Content? {
        state.withLock { $0.contents[path] }
    }

    /// Makes `path` misbehave; the default misbehaviour is none.
    package func setMisbehavior(_ misbehavior: Misbehavior, for path: String) {
        state.withLock { state in
            state.misbehaviors[path] = misbehavior
            state.failuresServed[path] = 0
        }
    }

    /// Sends the bodies held for `path` (``Misbehavior/holdsBodies``) and holds no more.
    package func releaseBodies(of path: String) {
        let held = state.withLock { state in
            state.misbehaviors[path]?.holdsBodies = false
            return state.heldBodies.removeValue(forKey: path) ?? []
        }
        for send in held { send() }
    }

    /// Holds a body for `path` until ``releaseBodies(of:)``; sends it at once when released already.
    func hold(_ path: String, send: @escaping @Sendable () -> Void) {
        let isHeld = state.withLock { state in
            guard state.misbehaviors[path]?.holdsBodies == true else { return false }
            state.heldBodies[path, default: []].append(send)
            return true
        }
        if !isHeld { send() }
    }

    /// Body bytes sent for `path` so far.
    package func bytesSent(for path: String) -> Int64 {
        state.withLock { $0.bytesSent[path] ?? 0 }
    }

    /// Returns once `path` has been requested `count` times in all.
    package func requested(_ path: String, count: Int = 1) async {
        await wait { state in state.requests.count { $0.path == path } >= count }
    }

    /// Returns once `count` body bytes of `path` have been sent in all.
    package func sent(_ count: Int64, of path: String) async {
        await wait { state in state.bytesSent[path, default: 0] >= count }
    }

    private func wait(until isMet: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            let isMetNow = state.withLock { state in
                if isMet(state) { return true }
                state.waiters.append(Waiter(isMet: isMet, continuation: continuation))
                return false
            }
            if isMetNow { continuation.resume() }
        }
    }

    /// Body bytes sent for `path` once sending stopped: the count after it stayed the same for
    /// `quiet` (a cancelled fetch may still be draining), waiting at most ten seconds.
    package func settledBytesSent(for path: String, quiet: Duration = .seconds(1)) async throws -> Int64 {
        var last = bytesSent(for: path)
        var unchangedSince = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now - unchangedSince < quiet, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let now = bytesSent(for: path)
            if now != last {
                last = now
                unchangedSince = ContinuousClock.now
            }
        }
        return last
    }

    /// Every request for `path` so far, in order.
    package func requests(for path: String) -> [Request] {
        state.withLock { $0.requests.filter { $0.path == path } }
    }
}

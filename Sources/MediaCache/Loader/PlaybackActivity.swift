import Foundation

/// Whether any player is waiting for the network, so that preloads can stay out of its way.
///
/// A playback reader counts from the moment it waits for a fetch until the bytes arrive.
/// Preloads call ``waitUntilQuiet(for:)`` before each step: it returns once no player
/// has waited for `quietPeriod`, so a stream that waits between every chunk keeps preloads
/// paused throughout.
///
/// ```swift
/// // work of your own that must not compete with playback, between two steps:
/// try await loader.playback.waitUntilQuiet(for: .milliseconds(500))
/// ```
public final class PlaybackActivity: Sendable {
    private struct State {
        var waiting = 0
        var lastWaitEnded: Date?
        var idleWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())
    private let clock: any MediaCacheClock

    init(clock: any MediaCacheClock) {
        self.clock = clock
    }

    func beginWaiting() {
        state.withLock { $0.waiting += 1 }
    }

    func endWaiting() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.waiting -= 1
            state.lastWaitEnded = clock.now()
            guard state.waiting == 0 else { return [] }
            defer { state.idleWaiters = [:] }
            return Array(state.idleWaiters.values)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once no player has waited for the network for `quietPeriod`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func waitUntilQuiet(for quietPeriod: Duration) async throws {
        while true {
            try Task.checkCancellation()
            let (waiting, lastWaitEnded) = state.withLock { ($0.waiting, $0.lastWaitEnded) }
            if waiting > 0 {
                await waitUntilNoneWaiting()
                continue
            }
            let quietFor = lastWaitEnded.map { Duration.seconds(clock.now().timeIntervalSince($0)) } ?? quietPeriod
            guard quietFor < quietPeriod else { return }
            try await clock.sleep(for: quietPeriod - quietFor)
        }
    }

    private func waitUntilNoneWaiting() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.waiting > 0, !Task.isCancelled else { return true }
                    state.idleWaiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.idleWaiters.removeValue(forKey: id) }?.resume()
        }
    }
}

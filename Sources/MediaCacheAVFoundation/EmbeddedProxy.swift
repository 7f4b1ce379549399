import Foundation
import Logging
import MediaCache
import MediaCacheAPI
import MediaCacheServer

/// The loopback proxy an app's HLS plays through: started on first use on a free port, with a
/// random token in its paths, and kept listening.
///
/// iOS takes the listening sockets of suspended apps. When the listener closes under it, or a
/// check finds the port no longer answering (``verify()``: on use, and when the app returns
/// to the foreground), it binds again on the same port, so that URLs already handed to players
/// keep working. If another process took that port meanwhile, it binds a free one: items made
/// from then on use it, and the error log says that URLs handed out before stop working.
final class EmbeddedProxy: Sendable {
    private struct State {
        var urls: ProxyURL?
        var waiters: [CheckedContinuation<ProxyURL, any Error>] = []
        var failure: (any Error)?
        /// The port it last listened on.
        var bound: Int?
        var server: Task<Void, any Error>?
        var restart = false
    }

    private let token = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    private let serve: @Sendable (ProxyServer.Configuration) async throws -> ProxyServer
    private let state = Locked(State())
    private let supervisor = Locked<Task<Void, Never>?>(nil)
    private let logger = Logger(label: "mediacache.embedded-proxy")

    /// A proxy whose servers `serve` makes for a configuration (its address, port and token).
    init(serve: @escaping @Sendable (ProxyServer.Configuration) async throws -> ProxyServer) {
        self.serve = serve
    }

    /// Starts the proxy unless it runs.
    func start() {
        supervisor.withLock { supervisor in
            guard supervisor == nil else { return }
            supervisor = Task { await self.supervise() }
        }
    }

    /// The proxy's URLs, once it listens; starts it on first use.
    ///
    /// - Throws: Why the proxy stopped for good (``PlaybackCacheError/proxyDidNotStart`` when it
    ///   never listened).
    func urls() async throws -> ProxyURL {
        start()
        return try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<ProxyURL, any Error>? in
                if let urls = state.urls { return .success(urls) }
                if let failure = state.failure { return .failure(failure) }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Checks that the proxy still answers on its port, and binds it again there when it does
    /// not. Returns once it listens again (at once when it never started).
    func verify() async {
        guard supervisor.withLock({ $0 != nil }) else { return }
        guard let urls = state.withLock({ $0.urls }) else {
            _ = try? await self.urls()
            return
        }
        guard await !Self.answers(urls) else { return }
        let server = state.withLock { state -> Task<Void, any Error>? in
            guard state.urls == urls else { return nil }  // a restart already under way
            state.urls = nil
            state.restart = true
            return state.server
        }
        if let server {
            logger.warning("the embedded proxy stopped answering; binding it again", metadata: ["port": "\(urls.port)"])
            server.cancel()
        }
        _ = try? await self.urls()
    }

    /// Stops the proxy; it starts again on next use.
    func stop() async {
        let running = supervisor.withLock { supervisor in
            defer { supervisor = nil }
            return supervisor
        }
        running?.cancel()
        await running?.value
        state.withLock { $0 = State() }
    }

    /// Runs servers until cancelled: again on the same port when the listener was lost, on a
    /// free one when that port was taken.
    private func supervise() async {
        var port = 0
        while !Task.isCancelled {
            var configuration = ProxyServer.Configuration(host: "127.0.0.1", port: port)
            configuration.token = token
            let server = Task { [serve, token] in
                try await serve(configuration).run(handlingSignals: false) { bound in
                    self.listening(ProxyURL(host: "127.0.0.1", port: bound, token: token))
                }
            }
            state.withLock { $0.server = server }
            let result = await withTaskCancellationHandler {
                await server.result
            } onCancel: {
                server.cancel()
            }
            let (restart, bound) = state.withLock { state in
                defer { state.restart = false }
                return (state.restart && !Task.isCancelled, state.bound)
            }
            switch result {
            case .success where restart:
                port = bound ?? port
            case .success:
                stopped(PlaybackCacheError.proxyDidNotStart)
                return
            case .failure(let error as ProxyServerError) where error.code == .listenerClosed:
                let lost = error.port ?? port
                logger.warning("the embedded proxy's listening socket closed; binding it again", metadata: ["port": "\(lost)"])
                state.withLock { $0.urls = nil }
                port = lost
            case .failure(let error as ProxyServerError) where error.code == .portInUse && port != 0:
                let taken = error.port ?? port
                logger.error(
                    """
                    port \(taken) of the embedded proxy was taken by another process; it listens on a free port now: \
                    items made from now on use it, URLs handed to players before stop working
                    """)
                port = 0
            case .failure(let error):
                stopped(error)
                return
            }
        }
        stopped(PlaybackCacheError.proxyDidNotStart)
    }

    private func listening(_ urls: ProxyURL) {
        let waiters = state.withLock { state in
            state.urls = urls
            state.bound = urls.port
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: urls) }
    }

    /// Fails whoever waits for the proxy, and later callers, with `failure`.
    private func stopped(_ failure: any Error) {
        let waiters = state.withLock { state in
            state.failure = failure
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(throwing: failure) }
    }

    /// Whether the proxy at `urls` answers as itself: its API names a proxy URL with its token.
    /// A refused connection or another server's answer means it is gone; no answer within two
    /// seconds counts as busy, not gone, so that a loaded proxy keeps the streams it serves (a
    /// listener that closed under it is found by the listener itself).
    private static func answers(_ urls: ProxyURL) async -> Bool {
        guard let probe = URL(string: urls.root.absoluteString + "api/url?u=http%3A%2F%2Fprobe.invalid%2F") else { return false }
        do {
            let answer = try await LoopbackClient.get(probe, timeout: 2, limit: 4096)
            return answer.status == 200 && String(decoding: answer.body, as: UTF8.self).hasPrefix(urls.root.absoluteString)
        } catch let error as URLError where error.code == .timedOut {
            return true
        } catch {
            return false
        }
    }
}

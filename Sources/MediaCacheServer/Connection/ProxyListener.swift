import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// Accepts the proxy's connections and serves each with ``ProxyChannel``, until the server
/// shuts down.
///
/// A plain NIO `ServerBootstrap`, rather than Hummingbird's `Server`: its child initializer
/// sets a connection up on the connection's own event loop, where its requests are read and
/// answered (``RequestLoop``), so a new connection's first request waits for one hand-over
/// between threads at most (none when the loop that accepted it is its own). Hummingbird's
/// `Server` hands each connection through an async sequence to an accept-loop task of the
/// cooperative pool, which starts the connection's task: three hand-overs and a wake-up of that
/// task before the request is read.
///
/// On Linux each event loop has a listening socket of its own on the same port
/// (`SO_REUSEPORT`), and serves the connections it accepts: no connection's first request
/// waits for a wake-up of another loop's thread. Before those sockets bind, a plain
/// one must bind the port alone, so that a port held by another server (another
/// `mediacache serve` included) is refused rather than shared. Elsewhere, where `SO_REUSEPORT`
/// does not balance connections, one socket hands them to the loops in turn.
///
/// A listener on a loopback address gives its connections their congestion control itself
/// (``LocalClientCongestionControl``): they inherit it from their start, which an algorithm
/// set on each connection once accepted would miss.
///
/// Graceful shutdown stops accepting at once and lets each connection finish the response it
/// is sending (NIO's `ServerQuiescingHelper`; the HTTP pipeline closes idle connections and
/// those whose response ended). Cancelling ``run()`` also cancels the task of every request
/// being answered, and no request after it is answered on its connection. Either way, ``run()``
/// returns once every connection has closed and every request's task has ended.
struct ProxyListener<Responder: HTTPResponder>: Service where Responder.Context == ProxyRequestContext {
    let connections: ProxyChannel<Responder>
    let host: String
    let port: Int
    let eventLoopGroup: any EventLoopGroup
    /// Called with the bound port once the listener accepts connections.
    let onListening: @Sendable (Int) async -> Void
    let logger: Logger

    func run() async throws {
        let tasks = ConnectionTasks()
        let listeners = try await listen(tasks: tasks)
        let boundPort = listeners.first?.channel.localAddress?.port ?? port
        await onListening(boundPort)
        // Each completed once its listener has closed and every connection it accepted.
        let closed = listeners.map { $0.channel.eventLoop.makePromise(of: Void.self) }
        let stopping = NIOLockedValueBox(false)
        let shutDown: @Sendable () -> Void = {
            let first = stopping.withLockedValue { stopping in
                defer { stopping = true }
                return !stopping
            }
            guard first else { return }
            for (listener, promise) in zip(listeners, closed) { listener.quiescing.initiateShutdown(promise: promise) }
        }
        let lost = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                let lost = await Self.firstClose(of: listeners.map(\.channel)) {
                    guard !stopping.withLockedValue({ $0 }) else { return false }
                    shutDown()
                    return true
                }
                if !lost {
                    for promise in closed { try? await promise.futureResult.get() }
                }
                return lost
            } onGracefulShutdown: {
                shutDown()
            }
        } onCancel: {
            tasks.cancelAll()
            shutDown()
        }
        if lost {
            // The system took a listening socket (iOS does so in a suspended app): the others
            // were closed with it, and the connections already accepted finish on their own.
            logger.error("the listening socket closed", metadata: ["host": "\(host)", "port": "\(boundPort)"])
            throw ProxyServerError.listenerClosed(host: host, port: boundPort)
        }
        await tasks.waitForAll()
    }

    /// Waits until one of `channels` closed, then until all have. `closedFirst` runs once, at
    /// the first close: it says whether that close came unasked, and then closes the others;
    /// its answer is returned.
    private static func firstClose(of channels: [any Channel], closedFirst: @escaping @Sendable () -> Bool) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            for channel in channels {
                group.addTask { try? await channel.closeFuture.get() }
            }
            await group.next()
            return closedFirst()
        }
    }

    /// A listening socket, and what closes it and its connections gracefully.
    private struct Listener: Sendable {
        let channel: any Channel
        let quiescing: ServerQuiescingHelper
    }

    /// Where the listeners accept, and where each serves its connections.
    private var placements: [(accepting: any EventLoop, serving: any EventLoopGroup)] {
        #if os(Linux)
        eventLoopGroup.makeIterator().map { ($0, $0) }
        #else
        [(eventLoopGroup.next(), eventLoopGroup)]
        #endif
    }

    /// Binds every listener to ``port`` (the first one's, for port 0); closes those bound when
    /// one fails.
    private func listen(tasks: ConnectionTasks) async throws -> [Listener] {
        let placements = placements
        let sharesPort = placements.count > 1
        if sharesPort, port != 0 {
            // `SO_REUSEADDR`, as the listeners have: without it, the connections a server
            // closed first, waiting out `TIME_WAIT`, would keep its port from a restart.
            try await ServerBootstrap(group: placements[0].accepting)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get().close()
        }
        let clientsAreLocal = LoopbackAddress.isLoopback(host)
        var listeners: [Listener] = []
        do {
            for (accepting, serving) in placements {
                let boundPort = listeners.first?.channel.localAddress?.port ?? port
                listeners.append(
                    try await listener(
                        accepting: accepting, serving: serving, port: boundPort, sharing: sharesPort,
                        clientsAreLocal: clientsAreLocal, tasks: tasks))
            }
        } catch {
            for listener in listeners { try? await listener.channel.close() }
            throw error
        }
        return listeners
    }

    /// A listener on `port`, accepting on `accepting` and serving on `serving`; with
    /// `clientsAreLocal` (it listens on a loopback address) its connections inherit their
    /// congestion control from it.
    private func listener(
        accepting: any EventLoop, serving: any EventLoopGroup, port: Int, sharing: Bool,
        clientsAreLocal: Bool, tasks: ConnectionTasks
    ) async throws -> Listener {
        let quiescing = ServerQuiescingHelper(group: accepting)
        var bootstrap = ServerBootstrap(group: accepting, childGroup: serving)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
        if sharing {
            bootstrap = bootstrap.serverChannelOption(ChannelOptions.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: 1)
        }
        let channel =
            try await bootstrap
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if clientsAreLocal { LocalClientCongestionControl.applyToListener(channel) }
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelInitializer { [connections, logger] channel in
                connections.setup(channel: channel, inheritsCongestionControl: clientsAreLocal, tasks: tasks, logger: logger)
            }
            .bind(host: host, port: port).get()
        return Listener(channel: channel, quiescing: quiescing)
    }
}

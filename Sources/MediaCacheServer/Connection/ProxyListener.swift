import Hummingbird
import Logging
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
/// task before the request is read (BENCHMARKS.md, "A new connection's task started at its
/// set-up").
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
        let quiescing = ServerQuiescingHelper(group: eventLoopGroup)
        let tasks = ConnectionTasks()
        let server = try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [connections, logger] channel in
                connections.setup(channel: channel, tasks: tasks, logger: logger)
            }
            .bind(host: host, port: port).get()
        await onListening(server.localAddress?.port ?? port)
        // Completed once the listener has closed and every connection after it.
        let closed = server.eventLoop.makePromise(of: Void.self)
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                try? await closed.futureResult.get()
            } onGracefulShutdown: {
                quiescing.initiateShutdown(promise: closed)
            }
        } onCancel: {
            tasks.cancelAll()
            quiescing.initiateShutdown(promise: closed)
        }
        await tasks.waitForAll()
    }
}

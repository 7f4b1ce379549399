import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The proxy's HTTP/1.1 connections: SwiftNIO's HTTP/1 codec under the proxy's own request
/// loop, which hands each request to a Hummingbird responder (the router with its access,
/// method and logging layers) and writes the response itself.
///
/// Why not Hummingbird's own connection handling: its response parts carry `ByteBuffer`s
/// only, so a cached span could not leave as a `FileRegion`, and every cache hit would be
/// copied from the page cache into user space and back. Here a response body may also write
/// ``FileChunk``s (``FileSpanWriting``), which leave through `sendfile`. Everything else a
/// request meets (routing, the token and allow-list, logs, statistics) stays in Hummingbird
/// responders, unchanged. ``ProxyListener`` accepts the connections and shuts them down.
///
/// A connection's task runs on its channel's event loop (``EventLoopTaskExecutor``): a cache
/// hit is read, answered and queued to the socket without a hand-over between threads, each of
/// which costs a wake-up. On 1 MiB hits that saved 5–12 % of the server's CPU (BENCHMARKS.md).
/// The task starts as the connection is set up, on that loop, so a new connection's first
/// request waits for no other thread either.
///
/// Each connection is bounded: ``ConnectionWatchdog`` closes it when its client is too slow to
/// send a request or to take a response, or sends nothing at all; ``ConnectionSlots`` answers
/// connections beyond the limit with `503`; request heads and bodies have their size limits,
/// and a response waits for the client before it queues more (the channel's writability).
struct ProxyChannel<Responder: HTTPResponder>: Sendable where Responder.Context == ProxyRequestContext {
    /// An accepted connection: its parts, the file regions it has queued, and whether it got a slot.
    private struct Connection: Sendable {
        let parts: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
        let queued: QueuedRegions
        /// Whether the connection got one of the ``ConnectionSlots``; one that did not was
        /// answered `503` and is closing.
        let isAdmitted: Bool

        var channel: any Channel { parts.channel }
    }

    let responder: Responder
    let decoderLimits: NIOHTTPDecoderLimitConfiguration
    /// The `Server` header of every response.
    let serverName: String
    /// The largest request body read; a larger one is answered `413` and the connection closed.
    let maxRequestBody: Int
    let timeouts: ConnectionWatchdog.Timeouts
    let slots: ConnectionSlots
    let date = HTTPDate()
    /// How long a refused connection stays open for its client to read the `503`.
    static var refusalLinger: TimeAmount { .seconds(1) }

    /// Sets up an accepted connection's pipeline, on its event loop, and starts the task that
    /// serves its requests in turn among `tasks`.
    func setup(channel: any Channel, tasks: ConnectionTasks, logger: Logger) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            let isAdmitted = slots.take()
            if isAdmitted {
                channel.closeFuture.whenComplete { [slots] _ in slots.give() }
            } else {
                refuse(channel, logger: logger)
            }
            let watchdog = ConnectionWatchdog(timeouts: timeouts, logger: logger)
            try channel.pipeline.syncOperations.addHandler(watchdog)
            // Pipelining assistance holds a pipelined request back until the previous response
            // has ended, and closes idle connections when the server shuts down gracefully;
            // error handling answers a request NIO cannot parse with 400 and closes.
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: true, withErrorHandling: true, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: decoderLimits)
            let queued = QueuedRegions()
            channel.closeFuture.whenComplete { _ in queued.close() }
            try channel.pipeline.syncOperations.addHandler(ExchangeObserver(watchdog: watchdog))
            try channel.pipeline.syncOperations.addHandler(FileRegionSender(queued: queued))
            let connection = try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            let accepted = Connection(parts: connection, queued: queued, isAdmitted: isAdmitted)
            tasks.start(on: channel.eventLoop) { await serve(accepted, logger: logger) }
        }
    }

    private func serve(_ connection: Connection, logger: Logger) async {
        guard connection.isAdmitted else {
            try? await connection.parts.executeThenClose { _, _ in try await connection.channel.closeFuture.get() }
            return
        }
        do {
            try await withTaskCancellationHandler {
                let regions = OpenRegions()
                defer { regions.closeAll() }
                try await connection.parts.executeThenClose { inbound, outbound in
                    var parts = inbound.makeAsyncIterator()
                    while let request = try await IncomingRequest.next(from: &parts, maxBody: maxRequestBody) {
                        let writer = ConnectionBodyWriter(outbound: outbound, regions: regions, queued: connection.queued)
                        guard case .complete(let head, let body) = request else {
                            let refusal = ProxyResponder.text(.contentTooLarge, "request bodies are limited to \(maxRequestBody) bytes\n")
                            try await writer.respond(with: refusal, date: date.now, serverName: serverName, closing: true)
                            break
                        }
                        let keepsConnection = try await respond(to: head, body: body, channel: connection.channel,
                                                                writer: writer, logger: logger)
                        guard keepsConnection else { break }
                    }
                    // Closing now would drop what is still queued (a file region is written
                    // as the client takes it): half-close once it is written, and let the
                    // client close.
                    outbound.finish()
                    try await connection.channel.closeFuture.get()
                }
            } onCancel: {
                connection.channel.close(mode: .input, promise: nil)
            }
        } catch {
            logger.trace("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Answers a connection beyond ``ConnectionSlots/limit`` with `503` at once, before the
    /// HTTP handlers are added and without waiting for its request, and closes it once the
    /// client has closed its side, or after ``refusalLinger``: closing at once could reset the
    /// connection before the client read the answer.
    private func refuse(_ channel: any Channel, logger: Logger) {
        logger.warning("refusing a connection: all are in use", metadata: ["limit": "\(slots.limit)"])
        let body = "the server has \(slots.limit) connections open, its limit\n"
        let head = [
            "HTTP/1.1 503 Service Unavailable", "Content-Type: text/plain; charset=utf-8", "Content-Length: \(body.utf8.count)",
            "Connection: close", "Date: \(date.now)", "Server: \(serverName)",
        ]
        channel.writeAndFlush(ByteBuffer(string: head.joined(separator: "\r\n") + "\r\n\r\n" + body), promise: nil)
        channel.eventLoop.scheduleTask(in: Self.refusalLinger) { channel.close(promise: nil) }
    }

    /// Answers one request; returns whether the connection stays open for the next.
    private func respond(to head: HTTPRequestHead, body: ByteBuffer, channel: any Channel, writer: ConnectionBodyWriter,
                         logger: Logger) async throws -> Bool {
        let request: Request
        do {
            request = Request(head: try HTTPRequest(head, secure: false, splitCookie: false), body: RequestBody(buffer: body))
        } catch {
            try await writer.respond(with: ProxyResponder.text(.badRequest, "the request head is not valid HTTP: \(error)\n"),
                                     date: date.now, serverName: serverName, closing: true)
            return false
        }
        let context = ProxyRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            logger.debug("responder failed", metadata: ["error": "\(error)"])
            response = Response(status: .internalServerError)
        }
        try await writer.respond(with: response, date: date.now, serverName: serverName, closing: !head.isKeepAlive)
        return head.isKeepAlive
    }
}

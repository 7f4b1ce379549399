import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import MediaCache
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The proxy's HTTP/1.1 connections: SwiftNIO's HTTP/1 codec under the proxy's own request
/// loop (``RequestLoop``), which hands each request to a Hummingbird responder (the router with
/// its access, method and logging layers) and writes the response itself.
///
/// Why not Hummingbird's own connection handling: its response parts carry `ByteBuffer`s
/// only, so a cached span could not leave as a `FileRegion`, and every cache hit would be
/// copied from the page cache into user space and back. Here a response body may also write
/// ``FileChunk``s (``FileSpanWriting``), which leave through `sendfile`. Everything else a
/// request meets (routing, the token and allow-list, logs, statistics) stays in Hummingbird
/// responders, unchanged. ``ProxyListener`` accepts the connections and shuts them down.
///
/// Each request is decided on from its head in the pipeline (``ProxyRules``). A hit, a `GET`
/// the cache holds whole, is answered there on the spot, with no task. Every other request is
/// answered in a task that runs on its channel's event loop (``EventLoopTaskExecutor``), so
/// that it is read, answered and queued to the socket without a hand-over between threads,
/// each of which costs a wake-up.
///
/// Each connection is bounded: ``ConnectionWatchdog`` closes it when its client is too slow to
/// send a request or to take a response, or sends nothing at all; ``ConnectionSlots`` answers
/// connections beyond the limit with `503`; request heads and bodies have their size limits,
/// and a response waits for the client before it queues more (the channel's writability).
///
/// A class: each connection's request handlers hold it, which costs one reference rather than
/// a copy of every responder layer's references.
final class ProxyChannel<Responder: HTTPResponder>: Sendable where Responder.Context == ProxyRequestContext {
    /// An accepted connection's response side: its output, the files its responses queued,
    /// its send buffer, and its client's address as the access log writes it (read once, not
    /// per request).
    private struct Connection: Sendable {
        let output: ConnectionOutput
        let files: ConnectionFiles
        let sendBuffer: LocalClientSendBuffer
        let unsent: UnsentByteLimit
        let client: String?

        var channel: any Channel { output.channel }
    }

    let responder: Responder
    /// Decides on each request from its head.
    let rules: ProxyRules
    /// What the decisions read of the store, and where hits are read.
    let loader: MediaLoader
    /// The logs of hits answered at once; the responder logs the others.
    let log: ProxyLog
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

    init(
        responder: Responder, rules: ProxyRules, loader: MediaLoader, log: ProxyLog, decoderLimits: NIOHTTPDecoderLimitConfiguration,
        serverName: String,
        maxRequestBody: Int, timeouts: ConnectionWatchdog.Timeouts, slots: ConnectionSlots
    ) {
        self.responder = responder
        self.rules = rules
        self.loader = loader
        self.log = log
        self.decoderLimits = decoderLimits
        self.serverName = serverName
        self.maxRequestBody = maxRequestBody
        self.timeouts = timeouts
        self.slots = slots
    }

    /// Sets up an accepted connection's pipeline, on its event loop; its requests are answered
    /// in tasks among `tasks`. With `inheritsCongestionControl`, its listener gave it its
    /// congestion control (``LocalClientCongestionControl``).
    func setup(
        channel: any Channel, inheritsCongestionControl: Bool, tasks: ConnectionTasks,
        logger: Logger
    ) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            if !inheritsCongestionControl { LocalClientCongestionControl.apply(to: channel) }
            // A client that closes its side after its last request still gets the answers (see
            // `RequestLoop`). Set here rather than as the bootstrap's child option, which NIO
            // applies through a chain of futures on every new connection, for a flag.
            try channel.syncOptions?.setOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            let isAdmitted = slots.take()
            if isAdmitted {
                channel.closeFuture.whenComplete { [slots] _ in slots.give() }
            } else {
                refuse(channel, logger: logger)
            }
            let connection = Connection(
                output: ConnectionOutput(channel: channel), files: ConnectionFiles(),
                sendBuffer: LocalClientSendBuffer(channel: channel),
                unsent: UnsentByteLimit(channel: channel),
                client: isAdmitted ? channel.remoteAddress?.ipAddress : nil)
            channel.closeFuture.whenComplete { _ in connection.files.close() }
            let watchdog = ConnectionWatchdog(timeouts: timeouts, logger: logger)
            try channel.pipeline.syncOperations.addHandler(watchdog)
            try channel.pipeline.syncOperations.addHandler(FileRegionSender(queued: connection.files.queued))
            // Pipelining assistance holds a pipelined request back until the previous response
            // has ended, and closes idle connections when the server shuts down gracefully;
            // error handling answers a request NIO cannot parse with 400 and closes.
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: true, withErrorHandling: true, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: decoderLimits)
            try channel.pipeline.syncOperations.addHandler(ExchangeObserver(watchdog: watchdog))
            // A refused connection's requests are not read: it closes once its client has read the 503.
            guard isAdmitted else { return }
            let requests = RequestLoop(
                output: connection.output, maxBody: maxRequestBody, tasks: tasks, logger: logger,
                start: { request, context in self.start(request, context: context, on: connection, logger: logger) })
            try channel.pipeline.syncOperations.addHandler(requests)
        }
    }

    /// Decides on `request` and starts its answer: a hit at once, anything else in a task.
    private func start(
        _ request: IncomingRequest, context: ChannelHandlerContext, on connection: Connection,
        logger: Logger
    ) -> RequestStart {
        guard case .complete(let head, _) = request else {
            return .inTask { await self.answer(request, decision: nil, crossOrigin: nil, on: connection, logger: logger) }
        }
        let requestHead = ProxyRequestHead(head)
        let decision = rules.decide(requestHead, stored: loader)
        let crossOrigin = rules.crossOriginFields(for: requestHead)
        if case .resource(_, .hit(let record, let plan, let range)) = decision,
            let answered = sendHit(
                head, record: record, plan: plan, range: range, crossOrigin: crossOrigin, context: context,
                on: connection)
        {
            return .answered(answered)
        }
        return .inTask { await self.answer(request, decision: decision, crossOrigin: crossOrigin, on: connection, logger: logger) }
    }

    /// Answers one request as `decision` says (`nil` for a request refused before one), with
    /// the `crossOrigin` fields of a page allowed to read it; returns whether the connection
    /// stays open for the next. A failure while the response is written closes the
    /// connection: its client sees a short response.
    private func answer(
        _ request: IncomingRequest, decision: ProxyDecision?, crossOrigin: HTTPFields?, on connection: Connection,
        logger: Logger
    ) async -> Bool {
        connection.sendBuffer.restoreForOtherResponses()
        connection.unsent.setForOtherResponses()
        let writer = ConnectionBodyWriter(output: connection.output, files: connection.files)
        do {
            return try await withTaskCancellationHandler {
                guard case .complete(let head, let body) = request, let decision else {
                    let refusal = Response.text(.contentTooLarge, "request bodies are limited to \(maxRequestBody) bytes")
                    try await writer.respond(with: refusal, date: date.now, serverName: serverName, closing: true)
                    return false
                }
                return try await respond(
                    to: head, body: body, decision: decision, crossOrigin: crossOrigin,
                    channel: connection.channel, writer: writer, logger: logger)
            } onCancel: {
                // The server is stopping at once: no request after this one is answered.
                connection.channel.close(mode: .input, promise: nil)
            }
        } catch {
            logger.trace("connection ended", metadata: ["error": "\(error)"])
            connection.channel.close(promise: nil)
            return false
        }
    }

    /// Sends a hit on the spot: its head, `range` of the data file and its end are written
    /// from the event loop, and its access-log line once they have left, or once the
    /// connection failed, with the bytes that left. `nil` when the span cannot be sent from
    /// here (an encrypted store, a file system without descriptors, a resource changed since
    /// its record was read): the responders then execute the same decision.
    private func sendHit(
        _ request: HTTPRequestHead, record: ResourceRecord, plan: RangeResponsePlan, range: ByteRange,
        crossOrigin: HTTPFields?, context: ChannelHandlerContext, on connection: Connection
    ) -> EventLoopFuture<Bool>? {
        let start = ContinuousClock.now
        guard let chunk = loader.cachedSpan(range, of: record), connection.files.queued.tryEnter() else { return nil }
        let tally = ResponseTally()
        guard let region = try? connection.files.region(for: chunk.reportingSent { tally.add($0.length, from: .cache) }) else {
            return nil
        }
        connection.sendBuffer.enlargeForHit()
        connection.unsent.liftForHit()
        let keepsConnection = request.isKeepAlive
        var fields = ProxyResponder.headers(for: record.contentInfo, plan: plan)
        if let crossOrigin { fields.append(contentsOf: crossOrigin) }
        let response = HTTPResponse(status: HTTPResponse.Status(code: plan.status), headerFields: fields)
        let head = ConnectionBodyWriter.head(
            HTTPResponseHead(response), date: date.now, serverName: serverName,
            closing: !keepsConnection)
        let entry = ProxyLog.Entry(client: connection.client, method: request.method.rawValue, target: request.uri)
        let written = context.eventLoop.makePromise(of: Void.self)
        let answered = context.eventLoop.makePromise(of: Bool.self)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.fileRegion(region))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { [log] result in
            let isWritten = if case .success = result { true } else { false }
            let counts = tally.snapshot
            log.record(entry, status: Int(head.status.code), sent: counts.fromCache, counts: counts, start: start, error: nil)
            // A client that went away mid-body sees a short response, as on the other path.
            if !isWritten { channel.close(promise: nil) }
            answered.succeed(isWritten && keepsConnection)
        }
        return answered.futureResult
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
        // Its requests are not read: the end of its input closes it.
        try? channel.syncOptions?.setOption(ChannelOptions.allowRemoteHalfClosure, value: false)
        channel.eventLoop.scheduleTask(in: Self.refusalLinger) { channel.close(promise: nil) }
    }

    /// Answers one request; returns whether the connection stays open for the next.
    private func respond(
        to head: HTTPRequestHead, body: ByteBuffer, decision: ProxyDecision, crossOrigin: HTTPFields?,
        channel: any Channel, writer: ConnectionBodyWriter, logger: Logger
    ) async throws -> Bool {
        let request: Request
        do {
            request = Request(head: try HTTPRequest(head, secure: false, splitCookie: false), body: RequestBody(buffer: body))
        } catch {
            try await writer.respond(
                with: Response.text(.badRequest, "the request head is not valid HTTP: \(error)"),
                date: date.now, serverName: serverName, closing: true)
            return false
        }
        let context = ProxyRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger), decision: decision)
        var response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            logger.debug("responder failed", metadata: ["error": "\(error)"])
            response = Response(status: .internalServerError)
        }
        if let crossOrigin { response.headers.append(contentsOf: crossOrigin) }
        try await writer.respond(with: response, date: date.now, serverName: serverName, closing: !head.isKeepAlive)
        return head.isKeepAlive
    }
}

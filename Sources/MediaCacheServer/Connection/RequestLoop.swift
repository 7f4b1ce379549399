import Logging
import NIOCore
import NIOHTTP1

/// The last handler of a proxy connection's pipeline: gathers each request's head and body as
/// the HTTP decoder delivers them, and answers the requests in turn, each in a task of its own
/// (``ConnectionTasks``) that writes the response through ``ConnectionOutput``.
///
/// Requests are read and answered from the pipeline itself, not from a task that iterates the
/// connection's parts (`NIOAsyncChannel`): a request costs no hand-over of its parts from the
/// pipeline to a task, a connection no task while it is idle, and neither the set-up nor the
/// teardown of async sequences.
///
/// A request that can be answered at once (a cache hit) is answered from the pipeline
/// itself, with no task at all (``RequestStart``).
///
/// One request is answered at a time: NIO's pipelining handler, before this one, holds a
/// pipelined request back until the previous response has ended, and one that arrives while
/// that response's task is still finishing waits here. After a response that closes the
/// connection, or once the client has closed its side and every request is answered, the
/// connection's output is closed once its last bytes are sent, and the client closes.
final class RequestLoop: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    /// Starts answering one request, from the event loop.
    typealias Start = (IncomingRequest, ChannelHandlerContext) -> RequestStart

    /// A request whose end has not arrived.
    private struct PartialRequest {
        let head: HTTPRequestHead
        var body = ByteBuffer()
        /// Whether its body passed the limit: it was refused, and the rest of it is dropped.
        var isRefused = false
    }

    private let maxBody: Int
    private let tasks: ConnectionTasks
    private let start: Start
    private let output: ConnectionOutput
    private let logger: Logger
    private var reading: PartialRequest?
    /// Requests read whole, waiting for the response before them to end.
    private var waiting = CircularBuffer<IncomingRequest>(initialCapacity: 1)
    private var isAnswering = false
    private var isInputClosed = false
    /// Whether the output is closed or closing: nothing more is answered.
    private var isFinished = false

    /// - Parameter maxBody: the largest request body read; a larger one is answered as
    ///   ``IncomingRequest/bodyTooLarge(_:)`` at once, and the rest of it is not kept.
    init(
        output: ConnectionOutput, maxBody: Int, tasks: ConnectionTasks, logger: Logger,
        start: @escaping Start
    ) {
        self.output = output
        self.logger = logger
        self.maxBody = maxBody
        self.tasks = tasks
        self.start = start
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isFinished else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard reading == nil else { return fail(context, IncomingRequestError.headInsideBody) }
            reading = PartialRequest(head: head)
        case .body(var bytes):
            guard var request = reading else { return fail(context, IncomingRequestError.bodyWithoutHead) }
            guard !request.isRefused else { return }
            if request.body.readableBytes + bytes.readableBytes > maxBody {
                request.isRefused = true
                enqueue(.bodyTooLarge(request.head), context: context)
            } else {
                request.body.writeBuffer(&bytes)
            }
            reading = request
        case .end:
            guard let request = reading else { return fail(context, IncomingRequestError.bodyWithoutHead) }
            reading = nil
            if !request.isRefused { enqueue(.complete(request.head, body: request.body), context: context) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case ChannelEvent.inputClosed = event else { return context.fireUserInboundEventTriggered(event) }
        isInputClosed = true
        if let request = reading, !request.isRefused { return fail(context, IncomingRequestError.endedInsideRequest) }
        answerNext(context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        output.writabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        output.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The HTTP handlers before this one answered a request they could not parse already.
        context.close(promise: nil)
    }

    private func enqueue(_ request: IncomingRequest, context: ChannelHandlerContext) {
        waiting.append(request)
        answerNext(context)
    }

    /// Starts the answer to the next waiting request, unless one is running; closes the output
    /// once the client has closed its side and nothing is left to answer.
    private func answerNext(_ context: ChannelHandlerContext) {
        guard !isAnswering, !isFinished else { return }
        guard let request = waiting.popFirst() else {
            if isInputClosed, reading == nil { finish() }
            return
        }
        isAnswering = true
        let loop = context.eventLoop
        let this = NIOLoopBound(self, eventLoop: loop)
        let started = start(request, context)
        let context = NIOLoopBound(context, eventLoop: loop)
        switch started {
        case .answered(let answered):
            answered.whenSuccess { keepsConnection in this.value.answered(keepingConnection: keepsConnection, context.value) }
        case .inTask(let answer):
            tasks.start(on: loop) {
                let keepsConnection = await answer()
                loop.execute { this.value.answered(keepingConnection: keepsConnection, context.value) }
            }
        }
    }

    private func answered(keepingConnection: Bool, _ context: ChannelHandlerContext) {
        isAnswering = false
        guard keepingConnection else { return finish() }
        answerNext(context)
    }

    private func finish() {
        isFinished = true
        output.finish()
    }

    private func fail(_ context: ChannelHandlerContext, _ error: IncomingRequestError) {
        logger.trace("connection ended", metadata: ["error": "\(error)"])
        isFinished = true
        context.close(promise: nil)
    }
}

/// How a request is answered: on the spot, from the event loop (the future tells, once the
/// response is written, whether the connection stays open for the next), or in a task that
/// returns that.
enum RequestStart {
    case answered(EventLoopFuture<Bool>)
    case inTask(@Sendable () async -> Bool)
}

/// One request read from a connection: its head and its whole body, which the proxy's
/// routes keep small (JSON for the API, nothing for players).
enum IncomingRequest: Sendable {
    case complete(HTTPRequestHead, body: ByteBuffer)
    /// The body passed the limit; the rest of it is not kept.
    case bodyTooLarge(HTTPRequestHead)
}

/// Why a connection's parts did not form a request.
enum IncomingRequestError: Error {
    case bodyWithoutHead
    case headInsideBody
    case endedInsideRequest
}

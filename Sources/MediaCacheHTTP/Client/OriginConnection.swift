import NIOCore
import NIOHTTP1

/// What a connection reports to the request it carries, on the connection's event loop.
protocol OriginExchange: AnyObject, Sendable {
    /// The response's head.
    func received(_ head: HTTPResponseHead)
    /// A piece of the body; returns whether the connection may read on before ``resume()``.
    func received(_ body: ByteBuffer) -> Bool
    /// The end of one turn's reads.
    func readComplete()
    /// The response's end, or why it failed. The connection is back in its pool, or closed,
    /// before this is called, so that a redirect's next request can take it.
    func ended(_ result: Result<Void, any Error>)
}

/// The last handler of one HTTP/1.1 connection to an origin, under NIO's HTTP/1 client codec:
/// it sends one request at a time and hands its answer to the request's ``OriginExchange``.
///
/// It holds the connection's reads while the exchange has no room (back pressure), fails a
/// response the origin stops sending for longer than the read timeout, and gives the
/// connection back to its ``OriginPool`` once a response ended on a connection both sides keep.
/// Everything here runs on the channel's event loop.
final class OriginConnection: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Where a connection that can carry another request goes back to, and what is told when it
    /// closes.
    struct Pooling {
        let release: (OriginConnection) -> Void
        let closed: (OriginConnection) -> Void
    }

    private let readTimeout: TimeAmount
    private let pooling: Pooling
    private var context: ChannelHandlerContext?
    private var exchange: (any OriginExchange)?
    /// Whether the current response's head came: a connection closed before it may be retried.
    private var hasHead = false
    /// Whether both sides keep the connection after the current response.
    private var isKeptAlive = true
    /// Whether reads wait for the exchange's room, and whether one was asked meanwhile.
    private var isHeld = false
    private var hasHeldRead = false
    /// When the origin last sent something, or reading last resumed.
    private var lastActivity = NIODeadline.now()
    private var readTimer: Scheduled<Void>?
    /// How many requests this connection carried: one that carried some may have been closed
    /// by the origin while idle.
    private var requestsCarried = 0

    init(readTimeout: TimeAmount, pooling: Pooling) {
        self.readTimeout = readTimeout
        self.pooling = pooling
    }

    var isActive: Bool { context?.channel.isActive ?? false }
    var closeFuture: EventLoopFuture<Void>? { context?.channel.closeFuture }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Sends `head` and hands its answer to `exchange`.
    func send(_ head: HTTPRequestHead, for exchange: any OriginExchange) {
        guard let context, context.channel.isActive else {
            exchange.ended(.failure(OriginClientError.closedBeforeAnswer(reused: requestsCarried > 0)))
            return
        }
        self.exchange = exchange
        hasHead = false
        isKeptAlive = head.isKeepAlive
        requestsCarried += 1
        lastActivity = .now()
        armReadTimer()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Lets reads go on after ``OriginExchange/received(_:)-body`` said to hold them.
    func resume() {
        guard isHeld else { return }
        isHeld = false
        lastActivity = .now()
        if hasHeldRead, let context {
            hasHeldRead = false
            context.read()
        }
    }

    /// Stops `exchange`'s response, if it is still this connection's, by closing the connection.
    func cancel(_ exchange: any OriginExchange) {
        guard self.exchange === exchange else { return }
        self.exchange = nil
        context?.close(promise: nil)
    }

    /// Closes the connection; an exchange it carries fails.
    func close() {
        context?.close(promise: nil)
    }

    // MARK: Channel events

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange else {
            // Bytes nobody asked for, or the rest of a cancelled response: the connection can
            // no longer tell where a next response would start.
            context.close(promise: nil)
            return
        }
        lastActivity = .now()
        switch unwrapInboundIn(data) {
        case .head(let head):
            hasHead = true
            isKeptAlive = isKeptAlive && head.isKeepAlive
            exchange.received(head)
        case .body(let buffer):
            if !exchange.received(buffer) { isHeld = true }
        case .end:
            self.exchange = nil
            readTimer?.cancel()
            isHeld = false
            if hasHeldRead {
                // A kept connection reads on, to see its origin close it while it waits.
                hasHeldRead = false
                context.read()
            }
            if isKeptAlive && context.channel.isActive {
                pooling.release(self)
            } else {
                context.close(promise: nil)
            }
            exchange.ended(.success(()))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        exchange?.readComplete()
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        readTimer?.cancel()
        fail(OriginClientError.closedBeforeAnswer(reused: requestsCarried > 1))
        pooling.closed(self)
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        if isHeld {
            hasHeldRead = true
        } else {
            context.read()
        }
    }

    /// Ends the current exchange with `error`; after the head, a close is the origin's failure
    /// to finish, not a stale connection.
    private func fail(_ error: any Error) {
        guard let exchange else { return }
        self.exchange = nil
        readTimer?.cancel()
        if hasHead, case OriginClientError.closedBeforeAnswer = error {
            exchange.ended(.failure(OriginClientError.closedMidResponse))
        } else {
            exchange.ended(.failure(error))
        }
    }

    /// Fails the exchange once the origin has sent nothing for the read timeout while the
    /// exchange had room; checks again at the deadline the latest activity moved it to.
    private func armReadTimer() {
        guard let context else { return }
        let loop = context.eventLoop
        let connection = NIOLoopBound(self, eventLoop: loop)
        readTimer = loop.scheduleTask(deadline: lastActivity + readTimeout) {
            let this = connection.value
            guard this.exchange != nil else { return }
            if this.isHeld || NIODeadline.now() < this.lastActivity + this.readTimeout {
                if this.isHeld { this.lastActivity = .now() }
                this.armReadTimer()
            } else {
                this.fail(OriginClientError.readTimeout)
                this.context?.close(promise: nil)
            }
        }
    }
}

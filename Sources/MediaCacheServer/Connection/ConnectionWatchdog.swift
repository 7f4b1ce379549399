#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore

/// Closes a connection whose client takes too long: to send a request, to send anything at
/// all, or to take a response. The first handler of the pipeline, so that it sees request
/// bytes as they arrive, before the HTTP decoder has a whole head; ``ExchangeObserver``, after
/// the decoder, tells it when a request arrived and when its response ended
/// (``ConnectionDeadlines``).
///
/// A client that takes nothing of a response: once response bytes wait for it (the channel is
/// not writable), the watchdog checks every quarter of the send timeout whether they have
/// waited longer than it. On Linux the kernel's own record of the last data it sent on the
/// socket decides, so that a slow client that takes a span over many minutes is not cut off;
/// elsewhere the client must take the span queued for it within the timeout.
///
/// Deadlines move with every request and response, so they are kept as times, not timers: one
/// timer runs for the client's deadline and, when it fires before the deadline (which moved
/// on meanwhile), waits again for the rest; and the send check keeps running across the
/// response's moments of waiting until one finds nothing waiting. A request costs no timer of
/// its own.
final class ConnectionWatchdog: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How long the client may take for each thing.
    struct Timeouts: Sendable, Equatable {
        /// Between requests.
        var idle: Duration
        /// For a whole request, from its first byte.
        var request: Duration
        /// To take response bytes waiting for it.
        var send: Duration
    }

    private let timeouts: Timeouts
    private let logger: Logger
    private var deadlines = ConnectionDeadlines()
    private var channel: (any Channel)?
    /// The client's deadline running, and when it passes.
    private var clientDeadline: (deadline: ConnectionDeadlines.Deadline, passes: NIODeadline)?
    /// The timer that checks the client's deadline, and when it fires.
    private var deadlineTimer: (task: Scheduled<Void>, firesAt: NIODeadline)?
    private var sendCheck: RepeatedTask?
    /// When response bytes started waiting for the client.
    private var blockedSince: NIODeadline?

    init(timeouts: Timeouts, logger: Logger) {
        self.timeouts = timeouts
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        perform(deadlines.opened())
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        perform(deadlines.bytesArrived())
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            blockedSince = nil
            perform(deadlines.outputDrained())
        } else if blockedSince == nil {
            blockedSince = .now()
            if sendCheck == nil {
                let interval = TimeAmount(timeouts.send / 4)
                let watchdog = NIOLoopBound(self, eventLoop: context.eventLoop)
                sendCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                    watchdog.value.checkSend()
                }
            }
            perform(deadlines.outputBlocked())
        }
        context.fireChannelWritabilityChanged()
    }

    /// A whole request arrived.
    func requestArrived() {
        perform(deadlines.requestArrived())
    }

    /// The response's last part was written to the connection.
    func responseEnded() {
        perform(deadlines.responseEnded())
    }

    private func perform(_ action: ConnectionDeadlines.Action) {
        guard let channel else { return }
        switch action {
        case .keep:
            return
        case .disarm:
            clientDeadline = nil
        case .arm(let deadline):
            let timeout =
                switch deadline {
                case .idle: timeouts.idle
                case .request: timeouts.request
                }
            let passes = NIODeadline.now() + TimeAmount(timeout)
            clientDeadline = (deadline, passes)
            // A timer that fires later than the new deadline is replaced; an earlier one finds
            // the deadline moved and waits again.
            guard deadlineTimer.map({ $0.firesAt > passes }) ?? true else { return }
            deadlineTimer?.task.cancel()
            setDeadlineTimer(at: passes, on: channel.eventLoop)
        }
    }

    private func setDeadlineTimer(at time: NIODeadline, on eventLoop: any EventLoop) {
        let watchdog = NIOLoopBound(self, eventLoop: eventLoop)
        deadlineTimer = (eventLoop.scheduleTask(deadline: time) { watchdog.value.deadlineTimerFired() }, time)
    }

    private func deadlineTimerFired() {
        deadlineTimer = nil
        guard let clientDeadline, let channel else { return }
        guard clientDeadline.passes <= .now() else {
            setDeadlineTimer(at: clientDeadline.passes, on: channel.eventLoop)
            return
        }
        let reason =
            switch clientDeadline.deadline {
            case .idle: "no request for \(timeouts.idle)"
            case .request: "the request took longer than \(timeouts.request) to arrive"
            }
        close(because: reason)
    }

    private func checkSend() {
        guard let blockedSince, let channel else {
            // Nothing waits for the client: the check stops until something does.
            sendCheck?.cancel()
            sendCheck = nil
            return
        }
        let limit = TimeAmount(timeouts.send)
        guard NIODeadline.now() - blockedSince >= limit else { return }
        let reason = "the client took no response bytes for \(timeouts.send)"
        #if os(Linux)
        guard let socket = channel as? any SocketOptionProvider else {
            close(because: reason)
            return
        }
        let watchdog = NIOLoopBound(self, eventLoop: channel.eventLoop)
        socket.getTCPInfo().whenSuccess { info in
            // The kernel may still be sending what the channel queued: only a socket that
            // sent nothing for the whole timeout has a client that takes nothing.
            guard TimeAmount.milliseconds(Int64(info.tcpi_last_data_sent)) >= limit else { return }
            watchdog.value.close(because: reason)
        }
        #else
        close(because: reason)
        #endif
    }

    private func close(because reason: String) {
        guard let channel else { return }
        logger.info("closing a connection", metadata: ["reason": "\(reason)", "peer": "\(channel.remoteAddress.map { "\($0)" } ?? "-")"])
        stop()
        channel.close(promise: nil)
    }

    private func stop() {
        deadlineTimer?.task.cancel()
        deadlineTimer = nil
        clientDeadline = nil
        sendCheck?.cancel()
        sendCheck = nil
        channel = nil
    }
}

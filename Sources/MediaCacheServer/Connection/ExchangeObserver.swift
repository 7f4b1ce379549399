import NIOCore
import NIOHTTP1

/// Tells a connection's ``ConnectionWatchdog`` where its requests and responses end, from
/// inside the pipeline (after the HTTP decoder and the pipelining handler), so that a request
/// the decoder has whole stops its deadline at once, however long its answer takes to start on
/// a busy machine.
final class ExchangeObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let watchdog: ConnectionWatchdog

    init(watchdog: ConnectionWatchdog) {
        self.watchdog = watchdog
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { watchdog.requestArrived() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { watchdog.responseEnded() }
        context.write(data, promise: promise)
    }
}

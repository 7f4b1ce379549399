import Foundation
import NIOCore
import NIOHTTP1

/// Answers each request on one connection as ``TestOrigin`` decides, streaming bodies one
/// piece at a time so memory stays small, throttled and cut short when asked.
final class TestOriginHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let origin: TestOrigin
    private var head: HTTPRequestHead?

    init(origin: TestOrigin) {
        self.origin = origin
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let reply = origin.script.reply(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { ($0.name, $0.value) }, root: "http://127.0.0.1:\(origin.port)")
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            if let delay = reply.misbehavior.firstByteDelay {
                context.eventLoop.assumeIsolated().scheduleTask(in: .init(delay)) {
                    self.send(reply, path: path, version: head.version, context: context)
                }
            } else {
                send(reply, path: path, version: head.version, context: context)
            }
        }
    }

    private func send(_ reply: OriginScript.Reply, path: String, version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(reply.headers)
        if reply.body == nil, ![200, 206, 304].contains(reply.status) {
            headers.add(name: reply.misbehavior.lowercasesHeaders ? "content-length" : "Content-Length", value: "0")
        }
        let head = HTTPResponseHead(version: version, status: .init(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        guard let body = reply.body else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        guard reply.misbehavior.holdsBodies else {
            pump(
                body.content, from: body.range.lowerBound, to: body.range.upperBound, sent: 0,
                misbehavior: reply.misbehavior, path: path, context: context)
            return
        }
        context.flush()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        origin.script.hold(path) {
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.pump(
                    body.content, from: body.range.lowerBound, to: body.range.upperBound, sent: 0,
                    misbehavior: reply.misbehavior, path: path, context: context)
            }
        }
    }

    private func pump(
        _ content: TestOrigin.Content, from position: Int64, to end: Int64, sent: Int64,
        misbehavior: TestOrigin.Misbehavior, path: String, context: ChannelHandlerContext
    ) {
        if position >= end {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        guard let count = misbehavior.nextPiece(remaining: end - position, sent: sent) else {
            context.close(promise: nil)
            return
        }
        let bytes = content.bytes(in: position..<(position + count))
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        let next = { [self] in
            pump(
                content, from: position + count, to: end, sent: sent + count,
                misbehavior: misbehavior, path: path, context: context)
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).assumeIsolated().whenComplete { result in
            guard case .success = result else { return }
            // Counted once written to the socket, as a CDN bills: a piece still queued when the
            // client goes away was never sent.
            self.origin.script.countSent(bytes.count, for: path)
            if let delay = misbehavior.sendingTime(of: count) {
                context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { next() }
            } else {
                // A write the socket took at once completes inside `writeAndFlush`: calling
                // `next` here would recurse once per piece for as long as the client keeps up.
                context.eventLoop.assumeIsolated().execute { next() }
            }
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

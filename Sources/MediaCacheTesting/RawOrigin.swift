import Foundation
import MediaCache
import NIOCore
import NIOPosix

/// An origin too broken for ``TestOrigin`` to play: it answers every request on a loopback
/// port with bytes of its own making, `head` once and then `repeating` over and over until the
/// client goes away (an endless header block, a body that never ends), and counts what it
/// wrote to its sockets.
public final class RawOrigin: Sendable {
    /// The port the server listens on (on 127.0.0.1).
    public let port: Int
    private let channel: any Channel
    private let sent: Locked<Int64>

    private init(channel: any Channel, sent: Locked<Int64>) {
        self.channel = channel
        self.sent = sent
        port = channel.localAddress?.port ?? 0
    }

    /// Starts a server that answers every request with `head`, then `repeating` without end
    /// (an empty `repeating` ends the answer after `head` and closes the connection).
    public static func start(head: String, repeating: String = "") async throws -> RawOrigin {
        let sent = Locked<Int64>(0)
        let answer = RawAnswerHandler.Answer(head: Array(head.utf8), repeating: Array(repeating.utf8))
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RawAnswerHandler(answer: answer, sent: sent))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return RawOrigin(channel: channel, sent: sent)
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The bytes written to client sockets so far.
    public var bytesSent: Int64 { sent.withLock { $0 } }

    /// Stops listening.
    public func stop() async throws {
        try await channel.close()
    }
}

/// Writes a ``RawOrigin``'s answer once the request's first bytes arrive.
private final class RawAnswerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Answer: Sendable {
        var head: [UInt8]
        var repeating: [UInt8]
    }

    private let answer: Answer
    private let sent: Locked<Int64>
    private var isAnswering = false

    init(answer: Answer, sent: Locked<Int64>) {
        self.answer = answer
        self.sent = sent
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isAnswering else { return }
        isAnswering = true
        write(answer.head, context: context)
    }

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { [self] result in
            guard case .success = result else { return }
            sent.withLock { $0 += Int64(bytes.count) }
            if answer.repeating.isEmpty {
                context.close(promise: nil)
            } else {
                // On the loop's next turn: a write the socket takes at once completes inside
                // this one, and writing from here would recurse once per write (a client that
                // reads as fast as it comes overflowed the stack under AddressSanitizer).
                context.eventLoop.assumeIsolated().execute { [self] in write(answer.repeating, context: context) }
            }
        }
    }
}

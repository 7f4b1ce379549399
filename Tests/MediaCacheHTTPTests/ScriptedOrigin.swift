import Foundation
import MediaCache
import NIOCore
import NIOPosix

/// A loopback origin that answers each request as a script says, given the request and its
/// place on its connection, and records every request with its headers: for what a client
/// must do when a kept connection was closed, a redirect loops or an origin stops sending.
final class ScriptedOrigin: Sendable {
    /// A request as the origin read it.
    struct Request: Sendable {
        /// The connection's number, from 0, in order of acceptance.
        let connection: Int
        /// The request's number on its connection, from 0.
        let index: Int
        let method: String
        let target: String
        /// Header names lowercased.
        let headers: [String: String]
    }

    /// What the origin does with a request.
    enum Reply: Sendable {
        /// Writes these bytes and keeps the connection.
        case answer(String)
        /// Closes the connection without a word.
        case close
    }

    let port: Int
    private let channel: any Channel
    private let log: Locked<Log>

    /// What the origin saw: the requests, and the connections the client closed.
    struct Log {
        var requests: [Request] = []
        var closed: Set<Int> = []
    }

    private init(channel: any Channel, log: Locked<Log>) {
        self.channel = channel
        self.log = log
        port = channel.localAddress?.port ?? 0
    }

    /// The origins' own thread: NIO's shared loops also run the other suites' origins, whose
    /// bodies can keep a loop busy for longer than a read timeout these tests set.
    private static let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    static func start(_ script: @escaping @Sendable (Request) -> Reply) async throws -> ScriptedOrigin {
        let log = Locked(Log())
        let connections = Locked(0)
        let channel = try await ServerBootstrap(group: loop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = connections.withLock { count in
                    defer { count += 1 }
                    return count
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptedHandler(connection: number, script: script, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return ScriptedOrigin(channel: channel, log: log)
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    var requests: [Request] { log.withLock { $0.requests } }

    /// Whether connection `number` has closed.
    func hasClosed(_ number: Int) -> Bool { log.withLock { $0.closed.contains(number) } }

    func stop() async throws {
        try await channel.close()
    }

    /// A whole response with `body`.
    static func response(_ status: String = "200 OK", headers: [String] = [], body: String = "") -> String {
        (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
    }
}

/// Reads request heads (no bodies) and answers each as the script says.
private final class ScriptedHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connection: Int
    private let script: @Sendable (ScriptedOrigin.Request) -> ScriptedOrigin.Reply
    private let log: Locked<ScriptedOrigin.Log>
    private var received = ""
    private var index = 0

    init(
        connection: Int, script: @escaping @Sendable (ScriptedOrigin.Request) -> ScriptedOrigin.Reply,
        log: Locked<ScriptedOrigin.Log>
    ) {
        self.connection = connection
        self.script = script
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readString(length: buffer.readableBytes) ?? ""
        while let end = received.range(of: "\r\n\r\n") {
            let lines = received[..<end.lowerBound].components(separatedBy: "\r\n")
            received = String(received[end.upperBound...])
            let parts = lines[0].split(separator: " ")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let request = ScriptedOrigin.Request(
                connection: connection, index: index, method: String(parts[0]),
                target: String(parts[1]), headers: headers)
            index += 1
            log.withLock { $0.requests.append(request) }
            switch script(request) {
            case .answer(let bytes):
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: bytes)), promise: nil)
            case .close:
                context.close(promise: nil)
                return
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        log.withLock { _ = $0.closed.insert(connection) }
        context.fireChannelInactive()
    }
}

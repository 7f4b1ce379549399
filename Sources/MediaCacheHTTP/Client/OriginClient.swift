import Foundation
import MediaCache
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTP/1.1 client ``HTTPOrigin`` asks origins with: SwiftNIO's HTTP/1 codec, TLS through
/// SwiftNIO SSL, and connections kept per endpoint.
///
/// Why not AsyncHTTPClient, which it replaced: a cache's requests are simple (`GET` and `HEAD`
/// with a few headers, one at a time per connection), and on a miss the client sits between the
/// player's request and the origin's first byte, where AsyncHTTPClient's pool manager, request
/// state machines and delegate layers cost more CPU than the rest of the miss.
///
/// A request is made on one of the client's event loops (``loop(for:)``): the one it is asked
/// from, when that is one of them, else the one its host maps to. Its connection is taken from
/// or returned to that loop's ``OriginPool`` without a lock, and its answer is read there. So a
/// server whose connections run on the client's loops (`mediacache serve`) makes a miss's
/// request, and reads its answer, on the thread of the connection that asked, with no hand-over
/// between threads either way.
///
/// A request on a kept connection that closes before any answer came (the origin closed it
/// while idle) is sent again once, on a new connection.
///
/// ```swift
/// let client = OriginClient(configuration: .init())
/// let transfer = OriginTransfer(request, on: client, limit: 512 << 10)
/// ```
final class OriginClient: Sendable {
    struct Configuration: Sendable {
        var connectTimeout: TimeAmount = .seconds(10)
        var readTimeout: TimeAmount = .seconds(30)
        /// How long a connection waits, idle, for its endpoint's next request.
        var idleTimeout: TimeAmount = .seconds(60)
        /// PEM files of certificate authorities to trust besides the system's.
        var trustedCertificateFiles: [String] = []
    }

    /// One request as it goes out.
    struct Request: Sendable {
        var url: URL
        var method: HTTPMethod
        var headers: HTTPHeaders
    }

    /// The largest buffer one read of a connection fills: NIO's adaptive allocator grows each
    /// connection's reads up to it while they come back full, and shrinks them when they do not.
    ///
    /// NIO's default stops at 64 KiB, which splits a fast origin's body into several reads per
    /// turn of the loop and small writes to the store. A connection reads once per turn, up to
    /// 1 MiB, so that a turn's body is one buffer, which the fetch takes without a copy
    /// (``OriginTransfer``). A slow origin's reads stay as small as what arrives.
    static let largestRead = 1 << 20

    private let configuration: Configuration
    private let loops: [any EventLoop]
    private let pools: [NIOLoopBoundBox<OriginPool>]
    /// Made on the first `https` request: loading the system's trust roots is not free.
    private let tls = Locked<Result<NIOSSLContext, any Error>?>(nil)
    private let isShutDown = Locked(false)

    init(configuration: Configuration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        loops = Array(group.makeIterator())
        pools = loops.map { loop in
            NIOLoopBoundBox.makeBoxSendingValue(OriginPool(loop: loop, idleTimeout: configuration.idleTimeout), eventLoop: loop)
        }
    }

    /// The event loop a request for `url` asked from here is made on, and its answer read on:
    /// the caller's, when it runs on one of the client's loops, else the one `url`'s host maps to.
    func loop(for url: URL) -> any EventLoop {
        loops[index(for: OriginEndpoint(url)?.host ?? "")]
    }

    /// Sends `request` on a kept connection to its endpoint, or a new one (always a new one when
    /// `isRetry`), and has `exchange` told its answer. `attach` receives the connection and its
    /// loop before the request goes; returning `false` (the exchange was cancelled meanwhile)
    /// keeps the request from going.
    func send(
        _ request: Request, isRetry: Bool, to exchange: any OriginExchange,
        attach: @escaping @Sendable (NIOLoopBound<OriginConnection>, any EventLoop) -> Bool
    ) {
        guard let endpoint = OriginEndpoint(request.url) else {
            return exchange.ended(.failure(OriginClientError.unsupportedURL(request.url)))
        }
        guard !isShutDown.withLock({ $0 }) else { return exchange.ended(.failure(OriginClientError.shutDown)) }
        let index = index(for: endpoint.host)
        let loop = loops[index]
        var headers = request.headers
        headers.replaceOrAdd(name: "Host", value: endpoint.hostHeader)
        let head = HTTPRequestHead(
            version: .http1_1, method: request.method, uri: OriginEndpoint.requestTarget(of: request.url),
            headers: headers)
        let start: @Sendable () -> Void = { [self] in
            let pool = pools[index].value
            let sendOn = { (connection: OriginConnection) in
                if attach(NIOLoopBound(connection, eventLoop: loop), loop) {
                    connection.send(head, for: exchange)
                } else {
                    pool.release(connection)
                }
            }
            if !isRetry, let connection = pool.take(endpoint) { return sendOn(connection) }
            connect(to: endpoint, on: loop, pool: pools[index]).assumeIsolated().whenComplete { result in
                do {
                    let connection = try result.get().pipeline.syncOperations.handler(type: OriginConnection.self)
                    pool.opened(connection, to: endpoint)
                    sendOn(connection)
                } catch {
                    exchange.ended(.failure(error))
                }
            }
        }
        if loop.inEventLoop { start() } else { loop.execute(start) }
    }

    /// Closes every connection; later requests fail.
    func shutdown() async throws {
        isShutDown.withLock { $0 = true }
        for (loop, pool) in zip(loops, pools) {
            let closes = try await loop.submit { pool.value.closeAll() }.get()
            for close in closes { try? await close.get() }
        }
    }

    /// The index of the loop a request to `host` is made on (``loop(for:)``); `host` is read
    /// only when the caller runs on none of the client's loops.
    private func index(for host: @autoclosure () -> String) -> Int {
        loops.firstIndex { $0.inEventLoop } ?? index(forHost: host())
    }

    /// The index of the loop `host` maps to. The host (``OriginEndpoint/host``) is hashed byte by
    /// byte (FNV-1a), not decoded and hashed as a `String`, on every miss.
    private func index(forHost host: String) -> Int {
        let hash = host.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(loops.count))
    }

    /// A new connection to `endpoint`, its pipeline set up, on `loop`.
    private func connect(
        to endpoint: OriginEndpoint, on loop: any EventLoop,
        pool: NIOLoopBoundBox<OriginPool>
    ) -> EventLoopFuture<any Channel> {
        let tlsContext: NIOSSLContext?
        do {
            tlsContext = endpoint.isTLS ? try self.tlsContext() : nil
        } catch {
            return loop.makeFailedFuture(error)
        }
        let readTimeout = configuration.readTimeout
        return ClientBootstrap(group: loop)
            .connectTimeout(configuration.connectTimeout)
            .channelOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: Self.largestRead)
            )
            .channelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tlsContext {
                        try pipeline.addHandler(
                            NIOSSLClientHandler(
                                context: tlsContext,
                                serverHostname: endpoint.isAddressLiteral ? nil : endpoint.host))
                    }
                    try pipeline.addHTTPClientHandlers()
                    let pooling = OriginConnection.Pooling(release: { pool.value.release($0) }, closed: { pool.value.closed($0) })
                    try pipeline.addHandler(OriginConnection(readTimeout: readTimeout, pooling: pooling))
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
    }

    private func tlsContext() throws -> NIOSSLContext {
        try tls.withLock { made in
            if let made { return made }
            let result = Result {
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.additionalTrustRoots = configuration.trustedCertificateFiles.map { .file($0) }
                return try NIOSSLContext(configuration: settings)
            }
            made = result
            return result
        }.get()
    }
}

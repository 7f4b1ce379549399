import Foundation
import MediaCache
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP server on loopback that serves generated or given bytes, counts the body bytes
/// it sends per path, records every request, and misbehaves on request.
///
/// ```swift
/// let origin = try await TestOrigin.start()
/// origin.serve("/a.mp4", content: .pattern(length: 4 << 20, seed: 1))
/// origin.setMisbehavior(TestOrigin.Misbehavior(dropsAfter: 100_000), for: "/a.mp4")
/// // ... point an HTTPOrigin at origin.url("/a.mp4") ...
/// origin.bytesSent(for: "/a.mp4")
/// try await origin.stop()
/// ```
public final class TestOrigin: ScriptedOrigin, Sendable {
    /// What a path serves.
    public struct Content: Sendable {
        enum Source: Sendable {
            case pattern(seed: UInt64)
            case data(Data)
        }

        let source: Source
        /// The total length.
        public let length: Int64
        /// The current entity tag, quoted.
        public var etag: String
        /// The `Last-Modified` value.
        public var lastModified = "Mon, 02 Nov 2026 10:00:00 GMT"
        /// The `Content-Type`.
        public var mimeType: String

        /// `length` bytes of ``TestPattern`` with `seed`.
        public static func pattern(length: Int64, seed: UInt64, mimeType: String = "video/mp4") -> Content {
            Content(source: .pattern(seed: seed), length: length, etag: "\"p\(seed)\"", mimeType: mimeType)
        }

        /// The given bytes, such as a media file generated for the test.
        public static func data(_ data: Data, mimeType: String = "video/mp4") -> Content {
            Content(
                source: .data(data), length: Int64(data.count), etag: "\"d\(data.count)-\(data.hashValue)\"",
                mimeType: mimeType)
        }

        /// The bytes in `range`.
        public func bytes(in range: Range<Int64>) -> Data {
            switch source {
            case .pattern(let seed):
                TestPattern.data(offset: range.lowerBound, length: Int(range.count), seed: seed)
            case .data(let data):
                data.subdata(in: Int(range.lowerBound)..<Int(range.upperBound))
            }
        }
    }

    /// Ways the origin departs from a well-behaved server; combine freely.
    public struct Misbehavior: Sendable, Hashable {
        /// Answers `200` with the whole body to range requests.
        public var ignoresRange = false
        /// Leaves out `Accept-Ranges`.
        public var omitsAcceptRanges = false
        /// Sends every header name in lower case.
        public var lowercasesHeaders = false
        /// Sends bodies chunked, without `Content-Length` (and `*` as the `Content-Range` total).
        public var chunked = false
        /// Limits the body rate.
        public var bytesPerSecond: Int?
        /// Waits this long before the response head.
        public var firstByteDelay: Duration?
        /// Closes the connection after this many body bytes of each response.
        public var dropsAfter: Int64?
        /// Answers `503` to this many requests first.
        public var failsFirst = 0
        /// Claims a `Content-Range` start this far off the bytes actually sent.
        public var shiftsContentRange: Int64 = 0
        /// Answers `416` without a length to every range request.
        public var refusesRanges = false
        /// Answers `405` to `HEAD`.
        public var refusesHead = false
        /// Sends each response's head at once and holds its body until
        /// ``TestOrigin/releaseBodies(of:)``.
        public var holdsBodies = false

        /// Creates a misbehaviour; the default is none.
        public init(
            ignoresRange: Bool = false, omitsAcceptRanges: Bool = false, lowercasesHeaders: Bool = false,
            chunked: Bool = false, bytesPerSecond: Int? = nil, firstByteDelay: Duration? = nil,
            dropsAfter: Int64? = nil, failsFirst: Int = 0, shiftsContentRange: Int64 = 0,
            refusesRanges: Bool = false, refusesHead: Bool = false, holdsBodies: Bool = false
        ) {
            self.ignoresRange = ignoresRange
            self.omitsAcceptRanges = omitsAcceptRanges
            self.lowercasesHeaders = lowercasesHeaders
            self.chunked = chunked
            self.bytesPerSecond = bytesPerSecond
            self.firstByteDelay = firstByteDelay
            self.dropsAfter = dropsAfter
            self.failsFirst = failsFirst
            self.shiftsContentRange = shiftsContentRange
            self.refusesRanges = refusesRanges
            self.refusesHead = refusesHead
            self.holdsBodies = holdsBodies
        }
    }

    /// One request as received.
    public struct Request: Sendable, Hashable {
        /// `GET` or `HEAD`.
        public var method: String
        /// The path, without the query.
        public var path: String
        /// The `Range` header, if sent.
        public var range: String?
        /// The `If-Range` header, if sent.
        public var ifRange: String?
        /// The `If-None-Match` header, if sent.
        public var ifNoneMatch: String?
        /// Every header sent, by lowercased name.
        public var headers: [String: String] = [:]
    }

    /// What the server answers, and what it was asked and sent.
    public let script = OriginScript()
    private let channel: any Channel
    /// Open connections, closed by ``stop()`` as a real server shutdown would.
    private let connections = Locked<[ObjectIdentifier: any Channel]>([:])
    private let accepted = Locked(0)

    /// The port the server listens on (on 127.0.0.1).
    public let port: Int

    private init(channel: any Channel) {
        self.channel = channel
        port = channel.localAddress?.port ?? 0
    }

    /// Starts a server on a free loopback port.
    public static func start() async throws -> TestOrigin {
        let box = Locked<TestOrigin?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let origin = box.withLock { $0! }
                origin.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TestOriginHandler(origin: origin))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let origin = TestOrigin(channel: channel)
        box.withLock { $0 = origin }
        return origin
    }

    /// Stops listening and closes every open connection; stopping again does nothing.
    public func stop() async throws {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
            return
        }
        let open = connections.withLock { connections in
            defer { connections = [:] }
            return Array(connections.values)
        }
        for connection in open { try? await connection.close() }
    }

    /// Connections accepted so far.
    public var connectionsAccepted: Int {
        accepted.withLock { $0 }
    }

    private func track(_ connection: any Channel) {
        accepted.withLock { $0 += 1 }
        let id = ObjectIdentifier(connection)
        connections.withLock { $0[id] = connection }
        connection.closeFuture.whenComplete { [connections] _ in connections.withLock { $0[id] = nil } }
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}

import NIOCore
import NIOPosix
import Testing
@testable import MediaCacheServer

/// A client on this machine gets a send buffer larger than the kernel's own tuning reaches
/// while it is sent hits, where the kernel grants one; elsewhere, and for every other response,
/// the kernel's size stays.
@Suite(.timeLimit(.minutes(2))) struct LocalClientSendBufferTests {
    @Test func theSizeIsAskedForOnlyWhereTheKernelGrantsMoreThanItsTuning() {
        let requested = LocalClientSendBuffer.requested
        #expect(
            LocalClientSendBuffer.size(wmemMax: requested, tunedMax: requested) == requested,
            "granted twice the request, more than the tuning's 4 MiB")
        #expect(
            LocalClientSendBuffer.size(wmemMax: 212_992, tunedMax: 4 << 20) == nil,
            "the usual wmem_max: asking would shrink the buffer to 416 KiB")
        #expect(
            LocalClientSendBuffer.size(wmemMax: requested / 2, tunedMax: requested) == nil,
            "granted just what the tuning reaches: nothing to gain")
        #expect(LocalClientSendBuffer.size(wmemMax: nil, tunedMax: 4 << 20) == nil)
        #expect(LocalClientSendBuffer.size(wmemMax: requested, tunedMax: nil) == nil)
    }

    @Test func loopbackAddressesAreTold() throws {
        #expect(LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "127.0.0.1", port: 80)))
        #expect(LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "127.8.9.10", port: 80)))
        #expect(LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "::1", port: 80)))
        #expect(LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 80)))
        #expect(!LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "192.168.1.2", port: 80)))
        #expect(!LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "::ffff:10.0.0.1", port: 80)))
        #expect(!LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "::2", port: 80)))
        #expect(!LoopbackAddress.isLoopback(try SocketAddress(ipAddress: "128.0.0.1", port: 80)))
    }

    /// A real connection over loopback: a hit enlarges its accepted socket's send buffer, as the
    /// kernel reports it, where this machine's kernel grants more than its tuning; any other
    /// response gives the buffer back the size it had.
    @Test(.timeLimit(.minutes(1))) func aHitEnlargesALoopbackBufferAndAnyOtherResponseRestoresIt() async throws {
        let sizes = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: [Int].self)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let option = ChannelOptions.socketOption(.so_sndbuf)
                    let buffer = LocalClientSendBuffer(channel: channel)
                    var seen = [try channel.syncOptions!.getOption(option)]
                    buffer.enlargeForHit()
                    seen.append(try channel.syncOptions!.getOption(option))
                    buffer.enlargeForHit()
                    seen.append(try channel.syncOptions!.getOption(option))
                    buffer.restoreForOtherResponses()
                    seen.append(try channel.syncOptions!.getOption(option))
                    sizes.succeed(seen)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(to: try #require(server.localAddress)).get()
        let seen = try await sizes.futureResult.get()
        if let size = LocalClientSendBuffer.size {
            // Linux doubles what a socket asks for, to leave room for its own bookkeeping.
            #expect(seen[1] == 2 * size && seen[2] == 2 * size, "\(seen)")
        } else {
            #expect(seen[1] == seen[0] && seen[2] == seen[0], "asking would not have enlarged it: \(seen)")
        }
        #expect(seen[3] == seen[0], "restored to the kernel's size: \(seen)")
        try await client.close()
        try await server.close()
    }
}

import NIOCore
import NIOPosix
import Testing
@testable import MediaCacheServer

/// A client on this machine gets a send buffer larger than the kernel's own tuning reaches,
/// where the kernel grants one; elsewhere the kernel's size stays.
@Suite struct LocalClientSendBufferTests {
    @Test func theSizeIsAskedForOnlyWhereTheKernelGrantsMoreThanItsTuning() {
        let requested = LocalClientSendBuffer.requested
        #expect(LocalClientSendBuffer.size(wmemMax: requested, tunedMax: requested) == requested,
                "granted twice the request, more than the tuning's 4 MiB")
        #expect(LocalClientSendBuffer.size(wmemMax: 212_992, tunedMax: 4 << 20) == nil,
                "the usual wmem_max: asking would shrink the buffer to 416 KiB")
        #expect(LocalClientSendBuffer.size(wmemMax: requested / 2, tunedMax: requested) == nil,
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

    /// A real connection over loopback: its accepted socket's send buffer, as the kernel reports
    /// it, is what this machine's kernel grants.
    @Test(.timeLimit(.minutes(1))) func anAcceptedLoopbackConnectionGetsTheBuffer() async throws {
        let accepted = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: (before: Int, after: Int).self)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let option = ChannelOptions.socketOption(.so_sndbuf)
                    let before = try channel.syncOptions!.getOption(option)
                    LocalClientSendBuffer.apply(to: channel)
                    accepted.succeed((before, try channel.syncOptions!.getOption(option)))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(to: try #require(server.localAddress)).get()
        let sizes = try await accepted.futureResult.get()
        if let size = LocalClientSendBuffer.size {
            // Linux doubles what a socket asks for, to leave room for its own bookkeeping.
            #expect(sizes.after == 2 * size)
        } else {
            #expect(sizes.after == sizes.before, "asking would not have enlarged it: the kernel's size stays")
        }
        try await client.close()
        try await server.close()
    }
}

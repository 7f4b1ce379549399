import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import MediaCacheServer

/// A response's writes go to the channel at once while it is writable, wait while it is not,
/// and fail once the connection has closed or the server stops at once.
@Suite(.timeLimit(.minutes(2))) struct ConnectionOutputTests {
    @Test func aWriteWaitsWhileTheChannelIsNotWritableAndGoesOnOnceItIs() async throws {
        let channel = NIOAsyncTestingChannel()
        let output = ConnectionOutput(channel: channel)
        try await output.write(.body(.byteBuffer(ByteBuffer(string: "first"))))
        #expect(try await Self.bodies(in: channel) == ["first"], "a writable channel takes the write at once")

        output.writabilityChanged(isWritable: false)
        let second = Task { try await output.write(.body(.byteBuffer(ByteBuffer(string: "second")))) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await Self.bodies(in: channel).isEmpty, "nothing is written while the client is behind")
        output.writabilityChanged(isWritable: true)
        try await second.value
        #expect(try await Self.bodies(in: channel) == ["second"])
        _ = try? await channel.close()
    }

    @Test func writesFailOnceTheConnectionClosedAndAWaitingOneFailsAtOnce() async throws {
        let channel = NIOAsyncTestingChannel()
        let output = ConnectionOutput(channel: channel)
        output.writabilityChanged(isWritable: false)
        let waiting = Task { try await output.write(.end(nil)) }
        try await Task.sleep(for: .milliseconds(20))
        output.closed()
        await #expect(throws: ChannelError.ioOnClosedChannel) { try await waiting.value }
        await #expect(throws: ChannelError.ioOnClosedChannel) { try await output.write(.end(nil)) }
        #expect(try await Self.bodies(in: channel).isEmpty)
    }

    @Test func aCancelledRequestStopsWaitingAndLaterWritesOnlyGoOnWhileWritable() async throws {
        let channel = NIOAsyncTestingChannel()
        let output = ConnectionOutput(channel: channel)
        output.writabilityChanged(isWritable: false)
        let waiting = Task { try await output.write(.end(nil)) }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await #expect(throws: CancellationError.self, "a server stopping at once waits for no client") {
            try await output.write(.end(nil))
        }
        output.writabilityChanged(isWritable: true)
        try await output.write(.body(.byteBuffer(ByteBuffer(string: "last"))))
        #expect(try await Self.bodies(in: channel) == ["last"])
        _ = try? await channel.close()
    }

    /// The body buffers written to `channel` since the last call, as text.
    static func bodies(in channel: NIOAsyncTestingChannel) async throws -> [String] {
        var bodies: [String] = []
        while let part = try await channel.readOutbound(as: HTTPServerResponsePart.self) {
            if case .body(.byteBuffer(let buffer)) = part { bodies.append(String(buffer: buffer)) }
        }
        return bodies
    }
}

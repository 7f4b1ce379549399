import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheHTTP
import MediaCacheTesting
import Testing

/// `HTTPOrigin` reads a body ahead of the fetch that consumes it, a bounded amount, and hands
/// over what arrived meanwhile as one chunk; a fetch that stops stops its transfer, redirected
/// or not, and one host's requests keep one connection.
@Suite(.timeLimit(.minutes(2))) struct HTTPOriginReadAheadTests {
    @Test func whatArrivedMeanwhileIsOneChunkAndTheBytesAreTheOrigins() async throws {
        try await EngineFixture.run { harness in
            // An origin that writes a piece of 1/50 of its rate every 20 ms: one socket read
            // takes about one piece.
            let rate = 8 << 20
            let piece = rate / 50
            let length: Int64 = 4 << 20
            let content = harness.serve("/a.mp4", length: length, misbehavior: .init(bytesPerSecond: rate))
            let response = try await harness.http.fetch(OriginRequest(url: harness.origin.url("/a.mp4")))
            // A slow consumer, as one that writes each chunk to a disk: five pieces arrive
            // while it works on one chunk.
            var chunks: [Data] = []
            for try await chunk in response.body {
                chunks.append(chunk)
                try await Task.sleep(for: .milliseconds(100))
            }
            let largest = chunks.map(\.count).max() ?? 0
            #expect(largest > 2 * piece, "a chunk holds the reads made while nobody asked")
            #expect(chunks.reduce(Data(), +) == content.bytes(in: 0..<length))
        }
    }

    @Test func aBodyNobodyTakesIsReadAheadOnlyALittle() async throws {
        try await EngineFixture.run { harness in
            let length: Int64 = 96 << 20
            let content = harness.serve("/big.mp4", length: length)
            let response = try await harness.http.fetch(OriginRequest(url: harness.origin.url("/big.mp4")))
            // What the origin could send: the bytes read ahead, and the sockets' buffers.
            let sent = try await harness.origin.settledBytesSent(for: "/big.mp4")
            #expect(sent < 32 << 20, "\(sent) bytes sent to a fetch that took none")
            var received = Data()
            for try await chunk in response.body { received.append(chunk) }
            #expect(received == content.bytes(in: 0..<length))
        }
    }

    @Test func cancellingTheTaskThatWaitsForTheBodyEndsTheTransfer() async throws {
        try await EngineFixture.run { harness in
            let length: Int64 = 64 << 20
            harness.serve("/slow.mp4", length: length, misbehavior: .init(bytesPerSecond: 1 << 20))
            let http = harness.http
            let url = harness.origin.url("/slow.mp4")
            let reading = Task {
                let response = try await http.fetch(OriginRequest(url: url))
                var count = 0
                for try await chunk in response.body { count += chunk.count }
                return count
            }
            await harness.origin.sent(256 << 10, of: "/slow.mp4")
            reading.cancel()
            await #expect(throws: (any Error).self) { try await reading.value }
            // Still reading, the origin would send 1 MiB every second for a minute.
            let sent = try await harness.origin.settledBytesSent(for: "/slow.mp4", quiet: .seconds(2))
            #expect(sent < 8 << 20, "\(sent) bytes sent after the fetch was cancelled")
        }
    }

    @Test func aTruncatedBodyFailsAfterTheBytesThatCame() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/cut.mp4", length: 4 << 20, misbehavior: .init(dropsAfter: 1 << 20))
            let response = try await harness.http.fetch(OriginRequest(url: harness.origin.url("/cut.mp4")))
            var received = Data()
            await #expect(throws: OriginError.self) {
                for try await chunk in response.body { received.append(chunk) }
            }
            #expect(received == content.bytes(in: 0..<Int64(received.count)) && received.count <= 1 << 20)
        }
    }

    @Test func cancellingAFetchWhoseRedirectIsUnansweredEndsItAtOnceAndStopsTheRedirect() async throws {
        try await EngineFixture.run { harness in
            harness.serve(
                "/late.mp4", length: 64 << 20,
                misbehavior: .init(bytesPerSecond: 1 << 20, firstByteDelay: .seconds(3)))
            harness.origin.redirect("/moved.mp4", to: "/late.mp4")
            let http = harness.http
            let url = harness.origin.url("/moved.mp4")
            let fetching = Task { _ = try await http.fetch(OriginRequest(url: url)) }
            await harness.origin.requested("/late.mp4")
            let cancelled = ContinuousClock.now
            fetching.cancel()
            await #expect(throws: OriginError.self) { try await fetching.value }
            #expect(ContinuousClock.now - cancelled < .seconds(2), "the fetch waited for the redirect's head")
            // Once its head came, the redirected request stopped instead of sending 1 MiB a second.
            try await Task.sleep(for: .seconds(3))
            let sent = try await harness.origin.settledBytesSent(for: "/late.mp4", quiet: .seconds(2))
            #expect(sent < 4 << 20, "\(sent) bytes sent after the fetch was cancelled")
        }
    }

    /// Probes and ranges of one host, one after another, keep one connection: each host's
    /// requests prefer one event loop, where their connections are made. (Asking for the
    /// delegate and the channel on the loop instead made a connection per request.) The pauses
    /// let AsyncHTTPClient return the connection to its pool: a request made as a `HEAD`'s head
    /// arrives may find it not yet released.
    @Test func requestsToOneHostKeepOneConnection() async throws {
        try await EngineFixture.run { harness in
            let content = harness.serve("/a.mp4", length: 1 << 20)
            let url = harness.origin.url("/a.mp4")
            for offset in stride(from: Int64(0), to: 1 << 20, by: 128 << 10) {
                let probe = try await harness.http.fetch(OriginRequest(url: url, method: .head))
                #expect(probe.info.totalLength == 1 << 20)
                try await Task.sleep(for: .milliseconds(50))
                let response = try await harness.http.fetch(OriginRequest(url: url, bytes: ByteRequest(offset: offset, length: 128 << 10)))
                var received = Data()
                for try await chunk in response.body { received.append(chunk) }
                #expect(received == content.bytes(in: offset..<(offset + (128 << 10))))
            }
            #expect(harness.origin.connectionsAccepted == 1)
        }
    }
}

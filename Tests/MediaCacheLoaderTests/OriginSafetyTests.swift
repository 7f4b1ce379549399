import Foundation
import MediaCache
import MediaCacheFixtures
import MediaCacheHTTP
import MediaCacheTesting
import Testing

/// Origins that answer with what no server should: the read fails with a precise error or
/// takes only what the origin announced, the client stops reading, and nothing beyond what
/// was announced is stored.
@Suite(.timeLimit(.minutes(1))) struct OriginSafetyTests {
    @Test func anEndlessHeaderBlockIsRefusedAndNotReadToItsEnd() async throws {
        let origin = try await RawOrigin.start(
            head: "HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\n",
            repeating: "X-Padding: " + String(repeating: "a", count: 1_000) + "\r\n")
        try await EngineFixture.run { harness in
            await #expect {
                for try await _ in harness.loader.read(origin.url("/a.mp4"), ByteRequest(offset: 0)) {}
            } throws: { error in
                guard let failure = (error as? LoaderError)?.origin, failure.code == .transport else { return false }
                let reason = failure.message
                return reason.contains("sent a response head over 80 KiB")
            }
            let entries = try harness.store.entries()
            #expect(entries.isEmpty)
        }
        // What socket buffers took before the client gave up, not an endless stream.
        #expect(origin.bytesSent < 64 << 20)
        try await origin.stop()
    }

    @Test func aBodyGoingOnPastTheAnnouncedLengthIsCutThereAndNoMoreIsStored() async throws {
        let length = 1 << 20
        let chunk = String(repeating: "b", count: 0x10000)
        let origin = try await RawOrigin.start(
            head: "HTTP/1.1 206 Partial Content\r\nContent-Type: video/mp4\r\nContent-Range: bytes 0-\(length - 1)/\(length)\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n",
            repeating: "10000\r\n\(chunk)\r\n")
        try await EngineFixture.run { harness in
            // Asked for whole, so that one request is the only one: this origin answers any
            // request with the same head.
            var received = 0
            do {
                for try await part in harness.loader.read(origin.url("/a.mp4"), ByteRequest(offset: 0, length: Int64(length))) {
                    received += part.bytes.count
                }
                #expect(received == length, "a reader that took its last byte before the excess came")
            } catch let error as LoaderError where error.origin?.code == .invalidResponse {
                #expect(error.message.hasSuffix(": the body is longer than announced"), "a reader still reading when the excess came")
            }
            let key = harness.store.key(for: origin.url("/a.mp4"))
            #expect(try harness.store.availableRanges(for: key) == [ByteRange(0, Int64(length))])
            #expect(try harness.store.record(for: key)?.contentInfo.totalLength == Int64(length))
        }
        #expect(origin.bytesSent < 64 << 20)
        try await origin.stop()
    }

    @Test func aRedirectToAnotherSchemeIsNotFollowed() async throws {
        let origin = try await RawOrigin.start(head: "HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n")
        try await EngineFixture.run { harness in
            await #expect {
                for try await _ in harness.loader.read(origin.url("/a.mp4"), ByteRequest(offset: 0)) {}
            } throws: { error in
                guard (error as? LoaderError)?.origin?.status == 302 else { return false }
                return true
            }
            let entries = try harness.store.entries()
            #expect(entries.isEmpty)
        }
        try await origin.stop()
    }

    @Test func anOriginWithAnUntrustedCertificateIsRefusedUnlessItsAuthorityIsAdded() async throws {
        let openssl = try Tools.require("openssl")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let content = TestOrigin.Content.pattern(length: 300_000, seed: 9)
        try content.bytes(in: 0..<300_000).write(to: URL(fileURLWithPath: directory.appending("a.mp4")))
        let certificate = directory.appending("cert.pem")
        let made = try await CommandRun.run(
            path: openssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory.appending("key.pem"), "-out", certificate,
            ])
        #expect(made.status == 0, "\(made.errorOutput)")
        let probe = LoopbackSocket()
        let port = try #require(probe.bindToFreePort())
        probe.close()
        // `-WWW` serves the files of its working directory over HTTPS with the self-signed certificate.
        let server = try ChildProcess.spawn(
            path: "/bin/sh",
            [
                "-c",
                """
                cd '\(directory.path)' && exec '\(openssl)' s_server -quiet -accept 127.0.0.1:\(port) -cert cert.pem -key key.pem -WWW
                """,
            ], capturingOutput: false)
        defer { server.send(SIGKILL) }
        for _ in 0..<200 where !LoopbackSocket.accepts(port: port) {
            try await Task.sleep(for: .milliseconds(25))
        }
        let url = try #require(URL(string: "https://127.0.0.1:\(port)/a.mp4"))

        try await EngineFixture.run { harness in
            await #expect {
                for try await _ in harness.loader.read(url, ByteRequest(offset: 0)) {}
            } throws: { error in
                guard let failure = (error as? LoaderError)?.origin, failure.code == .transport else { return false }
                let reason = failure.message
                return reason.contains("TLS with 127.0.0.1:\(port) failed") && reason.contains("trusted authority")
            }
            let entries = try harness.store.entries()
            #expect(entries.isEmpty)
        }

        var trusting = HTTPOrigin.Configuration()
        trusting.trustedCertificateFiles = [certificate]
        let origin = HTTPOrigin(configuration: trusting)
        let storeDirectory = try TemporaryDirectory()
        defer { storeDirectory.remove() }
        let store = try MediaStore.open(at: storeDirectory.path)
        var received = Data()
        for try await chunk in MediaLoader(store: store, origin: origin).read(url, ByteRequest(offset: 0)) {
            received.append(chunk.bytes)
        }
        #expect(received == content.bytes(in: 0..<300_000))
        try store.close()
        try await origin.shutdown()
    }
}

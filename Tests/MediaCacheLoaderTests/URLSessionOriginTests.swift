import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache
import MediaCacheTesting
import MediaCacheURLSession
import Testing

/// `URLSessionOrigin` against the loopback test origin: ranges, validators, redirects and the
/// session delegate's say over them, an authorization it lacks, per-server headers, cancel.
/// The misbehaving origins of ``HostileOriginTests`` run against it too.
@Suite(.timeLimit(.minutes(2))) struct URLSessionOriginTests {
    @Test func rangesAndValidatorsMeanWhatTheySay() async throws {
        try await Self.withOrigin { test, origin in
            let content = TestOrigin.Content.pattern(length: 300_000, seed: 5)
            test.serve("/a.mp4", content: content)
            let url = test.url("/a.mp4")
            let partial = try await origin.fetch(OriginRequest(url: url, bytes: ByteRequest(offset: 1_000, end: 51_000)))
            #expect(partial.kind == .partial(offset: 1_000, length: 50_000) && partial.info.totalLength == 300_000)
            #expect(try await Self.body(partial) == content.bytes(in: 1_000..<51_000))
            #expect(test.requests(for: "/a.mp4").last?.headers["accept-encoding"] == "identity")

            let current = try #require(partial.info.etag)
            let unchanged = try await origin.fetch(.revalidation(of: url, stored: partial.info))
            #expect(unchanged.kind == .notModified)
            test.changeContent(of: "/a.mp4")
            let changed = try await origin.fetch(OriginRequest(url: url, bytes: ByteRequest(offset: 1_000), ifRange: current))
            #expect(changed.kind == .full, "a changed resource answers If-Range with all of it")
            _ = try await Self.body(changed)
        }
    }

    @Test func redirectsAreFollowedAndTheFinalURLRecorded() async throws {
        try await Self.withOrigin { test, origin in
            test.serve("/new.mp4", content: .pattern(length: 10_000, seed: 1))
            test.redirect("/old.mp4", to: "/new.mp4")
            let response = try await origin.fetch(OriginRequest(url: test.url("/old.mp4"), bytes: ByteRequest(offset: 0, length: 100)))
            #expect(response.info.finalURL == test.url("/new.mp4"))
            #expect(try await Self.body(response).count == 100)
        }
    }

    @Test func theSessionDelegateDecidesOnRedirects() async throws {
        let refusing = URLSession(configuration: .ephemeral, delegate: RefusingRedirects(), delegateQueue: nil)
        try await Self.withOrigin(session: refusing) { test, origin in
            test.serve("/new.mp4", content: .pattern(length: 10_000, seed: 1))
            test.redirect("/old.mp4", to: "/new.mp4")
            await #expect(throws: OriginError.status(302, url: test.url("/old.mp4"))) {
                _ = try await origin.fetch(OriginRequest(url: test.url("/old.mp4")))
            }
            #expect(test.requests(for: "/new.mp4").isEmpty)
        }
        refusing.invalidateAndCancel()
    }

    @Test func aMissingAuthorizationIsA401ThatNamesTheResourceAndHeadersPerServerMendIt() async throws {
        let headers = OriginHeaders()
        try await Self.withOrigin(headers: headers) { test, origin in
            test.serve("/secret.mp4", content: .pattern(length: 10_000, seed: 2))
            test.require("Authorization", "Bearer film", for: "/secret.mp4")
            let url = test.url("/secret.mp4")
            await #expect {
                _ = try await origin.fetch(OriginRequest(url: url))
            } throws: { error in
                (error as? OriginError) == .status(401, url: url) && "\(error)".contains("/secret.mp4")
            }
            headers.set(["Authorization": "Bearer film", "User-Agent": "FilmApp/2"], forServerOf: test.url("/other"))
            let answered = try await origin.fetch(OriginRequest(url: url))
            let body = try await Self.body(answered)
            #expect(answered.kind == .full && body.count == 10_000)
            #expect(test.requests(for: "/secret.mp4").last?.headers["user-agent"] == "FilmApp/2")
        }
    }

    @Test func theSessionsConfigurationGoesWithEveryRequest() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-App": "feed"]
        let session = URLSession(configuration: configuration)
        try await Self.withOrigin(session: session) { test, origin in
            test.serve("/a.mp4", content: .pattern(length: 1_000, seed: 3))
            _ = try await Self.body(try await origin.fetch(OriginRequest(url: test.url("/a.mp4"))))
            #expect(test.requests(for: "/a.mp4").last?.headers["x-app"] == "feed")
        }
    }

    @Test func cancellingAReadStopsTheTransfer() async throws {
        try await Self.withOrigin { test, origin in
            test.serve("/long.mp4", content: .pattern(length: 16 << 20, seed: 4))
            test.setMisbehavior(.init(bytesPerSecond: 2 << 20), for: "/long.mp4")
            let reading = Task {
                let response = try await origin.fetch(OriginRequest(url: test.url("/long.mp4")))
                for try await _ in response.body {}
            }
            await test.sent(256 << 10, of: "/long.mp4")
            reading.cancel()
            await #expect(throws: CancellationError.self) { try await reading.value }
            let sent = try await test.settledBytesSent(for: "/long.mp4")
            #expect(sent < 8 << 20, "\(sent) bytes sent of 16 MiB after the cancel")
        }
    }

    /// A test origin and a `URLSessionOrigin` over `session`.
    private static func withOrigin(
        session: URLSession = URLSession(configuration: .ephemeral), headers: OriginHeaders = OriginHeaders(),
        _ body: (TestOrigin, URLSessionOrigin) async throws -> Void
    ) async throws {
        let test = try await TestOrigin.start()
        let origin = URLSessionOrigin(session: session, headers: headers)
        do {
            try await body(test, origin)
        } catch {
            origin.invalidate()
            try? await test.stop()
            throw error
        }
        origin.invalidate()
        try await test.stop()
    }

    private static func body(_ response: OriginResponse) async throws -> Data {
        var data = Data()
        for try await chunk in response.body { data.append(chunk) }
        return data
    }
}

/// An app's session delegate that follows no redirect.
private final class RefusingRedirects: NSObject, URLSessionTaskDelegate {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

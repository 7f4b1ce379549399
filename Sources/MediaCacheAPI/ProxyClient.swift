import Foundation
import MediaCache
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The JSON API of a running proxy (`mediacache serve`, or an app's embedded one), through a
/// `URLSession` of its own: no cookies, no cache, no system proxy.
///
/// ```swift
/// if let server = ServerAnnouncement.read(in: directory) {
///     let client = ProxyClient(server)
///     for report in try await client.entryReports(members: false) { print(report.entry.url) }
/// }
/// ```
public struct ProxyClient: CacheMaintenance {
    /// The server's root URL.
    public let root: URL
    /// The server's token, when it needs one.
    public let token: String?

    /// A client for the server an announcement names.
    public init(_ announcement: ServerAnnouncement) {
        root = announcement.url
        token = announcement.token
    }

    public func entryReports(members: Bool) async throws -> [EntryReport] {
        try await call(.GET, "api/entries" + (members ? "?members=true" : ""))
    }

    public func removeEntry(named name: String) async throws -> [ResourceKey] {
        let report: RemovalReport = try await call(.DELETE, Self.entryPath(name))
        guard !report.removed.isEmpty else { throw ProxyClientError.invalidAnswer(path: "api/entries") }
        return report.removed
    }

    public func setPinned(_ pinned: Bool, named name: String) async throws -> ResourceKey {
        let report: EntryReport = try await call(pinned ? .PUT : .DELETE, Self.entryPath(name) + "/pin")
        return report.entry.key
    }

    /// `api/entries/{name}`, with `name` percent-encoded so that it holds no `/`.
    private static func entryPath(_ name: String) -> String {
        "api/entries/" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)
    }

    public func removeEntries(includingPinned: Bool) async throws -> [ResourceKey] {
        let report: RemovalReport = try await call(.DELETE, "api/entries" + (includingPinned ? "?includingPinned=true" : ""))
        return report.removed
    }

    public func statsReport() async throws -> StatsReport {
        try await call(.GET, "api/stats")
    }

    /// Queues preloads on the server; answers their jobs.
    public func preload(_ request: PreloadRequest) async throws -> [PreloadJob] {
        try await call(.POST, "api/preload", body: APIJSON.encoder().encode(request))
    }

    /// The server's preload jobs: running, queued and recently ended.
    public func preloadJobs() async throws -> [PreloadJob] {
        try await call(.GET, "api/preload")
    }

    /// Starts (or adds selections to) a download on the server.
    public func startDownload(_ request: DownloadRequest) async throws -> DownloadReport {
        try await call(.POST, "api/downloads", body: APIJSON.encoder().encode(request))
    }

    /// The server's downloads, oldest first.
    public func downloadReports() async throws -> [DownloadReport] {
        try await call(.GET, "api/downloads")
    }

    /// Pauses (`pause`) or resumes (`resume`) the download `name` (an id or a URL).
    public func changeDownload(_ name: String, _ action: String) async throws -> DownloadReport {
        try await call(.POST, "api/downloads/" + Self.pathComponent(name) + "/" + action)
    }

    /// Removes the download `name` with exactly its resources.
    public func removeDownload(_ name: String) async throws -> [ResourceKey] {
        let report: RemovalReport = try await call(.DELETE, "api/downloads/" + Self.pathComponent(name))
        return report.removed
    }

    private static func pathComponent(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-"))) ?? name
    }

    /// The methods the API takes.
    private enum Method: String {
        case GET, POST, PUT, DELETE
    }

    private func call<Answer: Decodable>(_ method: Method, _ path: String, body: Data? = nil) async throws -> Answer {
        guard let url = URL(string: root.absoluteString + path) else { throw ProxyClientError.invalidAnswer(path: path) }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.timeoutInterval = 30
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (answer, response) = try await LoopbackSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw ProxyClientError.status(
                status,
                message: String(decoding: answer, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        do {
            return try APIJSON.decoder().decode(Answer.self, from: answer)
        } catch {
            throw ProxyClientError.invalidAnswer(path: path)
        }
    }
}

/// Why a call to a running server failed.
///
/// ```swift
/// do {
///     try await client.startDownload(request)
/// } catch let error as ProxyClientError where error.status == 400 {
///     print(error)   // the presentation has no audio in fr; it has: en, de
/// }
/// ```
public struct ProxyClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<ProxyClientError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The status the server answered with, for the code `status`.
    public let status: Int?
    /// The API path called, for the code `invalidAnswer`.
    public let path: String?

    private init(_ code: Code, _ message: String, status: Int? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.path = path
    }

    /// The server answered with an error status; `message` is what its answer says.
    public static func status(_ status: Int, message: String) -> Self {
        Self(.status, message.isEmpty ? "the server answered \(status)" : message, status: status)
    }

    /// The server's answer was not the JSON expected.
    public static func invalidAnswer(path: String) -> Self {
        Self(.invalidAnswer, "the server's answer to /\(path) is not the JSON expected", path: path)
    }

    public var description: String { message }
}

extension ErrorCode where Owner == ProxyClientError {
    /// The server answered with an error status.
    public static var status: Self { Self("status") }
    /// The server's answer was not the JSON expected.
    public static var invalidAnswer: Self { Self("invalidAnswer") }
}

import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import Prometheus

/// The JSON API, the metrics and the status page, beside the proxy paths.
///
/// | Route | Answer |
/// |---|---|
/// | `GET /` | the status page |
/// | `GET /api/url?u=URL` | the proxy URL for `URL`, as text |
/// | `GET /api/entries[?members=true]` | `[EntryReport]`; an HLS asset is one, its resources inside with `members` |
/// | `DELETE /api/entries/{key or URL, percent-encoded}` | `RemovalReport`; for an HLS asset, all of it |
/// | `PUT /api/entries/{key or URL, percent-encoded}/pin` | the pinned `EntryReport` |
/// | `DELETE /api/entries/{key or URL, percent-encoded}/pin` | the unpinned `EntryReport` |
/// | `DELETE /api/entries[?includingPinned=true]` | `RemovalReport` of every unpinned (or every) entry |
/// | `GET /api/stats` | `StatsReport` |
/// | `POST /api/preload` with a ``PreloadRequest`` | `[PreloadJob]` for its URLs |
/// | `GET /api/preload` | `[PreloadJob]`: running, queued, recently ended |
/// | `POST /api/downloads` (a `DownloadRequest`) | the `DownloadReport`; again for the same URL adds selections |
/// | `GET /api/downloads[/{id or URL}]` | `[DownloadReport]`, or one |
/// | `POST /api/downloads/{id}/pause`, `…/resume` | the `DownloadReport`; `409` when the state does not allow it |
/// | `DELETE /api/downloads/{id}` | `RemovalReport` of exactly its resources |
/// | `DELETE /api/preload[?url=URL]` | cancels one or every job; `[PreloadJob]` |
/// | `GET /metrics` | Prometheus text format |
struct ProxyAPI: Sendable {
    let engine: CacheEngine
    let downloads: DownloadManager
    let configuration: ProxyServer.Configuration

    var store: MediaStore { engine.store }
    var loader: MediaLoader { engine.loader }
    var preloader: Preloader { engine.preloader }

    func register(on router: Router<ProxyRequestContext>) {
        router.add(middleware: StoreErrorMiddleware())
        router.get("/") { _, _ in try await statusPage() }
        router.get("/api/url") { request, _ in proxyURL(request) }
        router.get("/api/entries") { request, _ in
            try Self.json(entryReports(members: request.uri.queryParameters["members"] == "true"))
        }
        router.delete("/api/entries") { request, _ in
            let includingPinned = request.uri.queryParameters["includingPinned"] == "true"
            return try Self.json(RemovalReport(removed: store.removeEntries(includingPinned: includingPinned)))
        }
        router.delete("/api/entries/**") { request, _ in
            try EntryPath(request).map { $0.isPin ? try pin(false, $0.name) : try remove($0.name) } ?? EntryPath.refusal
        }
        router.put("/api/entries/**") { request, _ in
            try EntryPath(request).map { $0.isPin ? try pin(true, $0.name) : Response.text(.notFound, "use PUT /api/entries/{key}/pin") }
                ?? EntryPath.refusal
        }
        router.get("/api/stats") { _, _ in try Self.json(statsReport()) }
        registerPreload(on: router)
        registerDownloads(on: router)
        if let registry = configuration.metrics {
            router.get("/metrics") { _, _ in try metrics(registry) }
        }
    }

    /// The store's entries, HLS assets as one each, with what this server did for each.
    private func entryReports(members: Bool = false) throws -> [EntryReport] {
        try store.entryReports(members: members, statistics: loader.resourceStatistics)
    }

    private func statsReport() throws -> StatsReport {
        let resources = Dictionary(uniqueKeysWithValues: loader.resourceStatistics.map { ($0.key.rawValue, $0.value) })
        return StatsReport(directory: store.directory, usage: try store.usage(), statistics: loader.statistics, resources: resources)
    }

    private func statusPage() async throws -> Response {
        let entries = try entryReports()
        let page = StatusPage(
            entries: entries, usage: try store.usage(),
            statistics: loader.statistics, preloads: await preloader.jobs,
            downloads: await downloads.downloads.map(DownloadReport.init), directory: store.directory)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page.html)))
    }

    /// The proxy URL for `?u=`, on the address the request reached (its `Host`), so that a
    /// server listening on every interface answers with an address the asking device can use.
    private func proxyURL(_ request: Request) -> Response {
        let origin: URL
        do {
            origin = try OriginURL.check(request.uri.queryParameters["u"].map(String.init) ?? "")
        } catch {
            return Response.text(.badRequest, "u: \(error)")
        }
        let reached =
            request.head.authority.flatMap {
                ProxyURL(authority: $0, token: configuration.token)
            } ?? configuration.urls
        guard let proxied = reached.url(for: origin) else {
            return Response.text(.badRequest, "u: \(origin) has no proxy URL")
        }
        return Response.text(.ok, proxied.absoluteString)
    }

    private func remove(_ name: String) throws -> Response {
        try Self.notFoundIfUnknown {
            try Self.json(RemovalReport(removed: store.removeEntry(named: name)))
        }
    }

    private func pin(_ pinned: Bool, _ name: String) throws -> Response {
        try Self.notFoundIfUnknown {
            let key = try store.setPinned(pinned, named: name)
            guard let entry = try store.entries().first(where: { $0.key == key }) else {
                throw MediaStoreError.unknownResource(key)
            }
            var report = EntryReport(entry: entry, ranges: try store.availableRanges(for: key))
            report.statistics = loader.resourceStatistics[key]
            return try Self.json(report)
        }
    }

    /// `body`'s answer, or `404` with the store's words when the entry is not cached: the same
    /// message `mediacache` prints without a server.
    private static func notFoundIfUnknown(_ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let error as MediaStoreError {
            guard error.code == .unknownResource else { throw error }
            return Response.text(.notFound, "\(error)")
        }
    }

    private func metrics(_ registry: PrometheusCollectorRegistry) throws -> Response {
        let usage = try store.usage()
        func gauge(_ name: String, _ unit: String, _ help: String) -> Gauge {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "mediacache", metricName: name,
                    unitName: unit, helpText: help))
        }
        gauge("store", "bytes", "Bytes cached on disk").set(Double(usage.cachedBytes))
        gauge("store", "entries", "Cached resources").set(Double(usage.entryCount))
        gauge("pinned", "bytes", "Bytes cached in pinned resources").set(Double(usage.pinnedBytes))
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = APIJSON.encoder()
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

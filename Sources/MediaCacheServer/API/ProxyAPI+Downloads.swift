import Foundation
import Hummingbird
import MediaCache
import MediaCacheAPI
import MediaCacheHLS

extension ProxyAPI {
    /// `POST`, `GET`, `DELETE /api/downloads[/{id}]` and `POST /api/downloads/{id}/pause|resume`.
    func registerDownloads(on router: Router<ProxyRequestContext>) {
        router.post("/api/downloads") { request, _ in try await startDownload(request) }
        router.get("/api/downloads") { _, _ in try Self.json(await downloads.downloads.map(DownloadReport.init)) }
        router.get("/api/downloads/:id") { _, context in
            try await answer(context) { download in download }
        }
        router.post("/api/downloads/:id/pause") { _, context in
            try await answer(context) { download in
                try await downloads.pause(download.id)
                return await downloads.download(named: download.id) ?? download
            }
        }
        router.post("/api/downloads/:id/resume") { _, context in
            try await answer(context) { download in
                try await downloads.resume(download.id)
                return await downloads.download(named: download.id) ?? download
            }
        }
        router.delete("/api/downloads/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let download = await downloads.download(named: id) else { return Self.unknownDownload(id) }
            return try Self.json(RemovalReport(removed: try await downloads.remove(download.id)))
        }
    }

    private func startDownload(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let asked: DownloadRequest
        let selection: DownloadSelection
        let url: URL
        do {
            asked = try APIJSON.decoder().decode(DownloadRequest.self, from: Data(buffer: body))
            selection = try asked.checkedSelection()
            url = try OriginURL.check(asked.url)
        } catch let error as InputError {
            return Response.text(.badRequest, "\(error)")
        } catch let error as OriginURLError {
            return Response.text(.badRequest, "url: \(error)")
        } catch {
            return Response.text(.badRequest, "the body must be JSON like {\"url\": \"https://…/master.m3u8\", \"audio\": \"en,de\"}")
        }
        if let refusal = configuration.allowedHosts?.refusal(of: url) { return refusal.response }
        do {
            let download = try await downloads.download(url, title: asked.title, selection: selection)
            return try Self.json(DownloadReport(download))
        } catch let error as DownloadSelectionError {
            return Response.text(.badRequest, "\(error)")
        }
    }

    /// The report of the download named by the path's `id` (an id or a URL) after `change`;
    /// `404` when there is none, `409` for a move its state does not allow.
    private func answer(_ context: ProxyRequestContext, _ change: (Download) async throws -> Download) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        guard let download = await downloads.download(named: id) else { return Self.unknownDownload(id) }
        do {
            return try Self.json(DownloadReport(try await change(download)))
        } catch let error as DownloadState.InvalidMove {
            return Response.text(.conflict, "\(error)")
        }
    }

    private static func unknownDownload(_ id: String) -> Response {
        Response.text(.notFound, "no download \(id)")
    }
}

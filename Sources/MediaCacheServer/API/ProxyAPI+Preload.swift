import Foundation
import Hummingbird
import MediaCache
import MediaCacheAPI

extension ProxyAPI {
    /// `POST`, `GET` and `DELETE /api/preload`.
    func registerPreload(on router: Router<ProxyRequestContext>) {
        router.post("/api/preload") { request, _ in try await preload(request) }
        router.get("/api/preload") { _, _ in try Self.json(await preloader.jobs) }
        router.delete("/api/preload") { request, _ in
            if let text = request.uri.queryParameters["url"].map(String.init) {
                do {
                    await preloader.cancel(try OriginURL.check(text))
                } catch {
                    return Response.text(.badRequest, "url: \(error)")
                }
            } else {
                await preloader.cancelAll()
            }
            return try Self.json(await preloader.jobs)
        }
    }

    private func preload(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let asked: PreloadRequest
        let amount: PreloadAmount
        do {
            asked = try APIJSON.decoder().decode(PreloadRequest.self, from: Data(buffer: body))
            amount = try asked.checkedAmount()
        } catch let error as InputError {
            return Response.text(.badRequest, "\(error)")
        } catch {
            return Response.text(.badRequest, "the body must be JSON like {\"urls\": [\"https://…\"], \"seconds\": 5}")
        }
        var urls: [URL] = []
        for text in asked.urls {
            let url: URL
            do {
                url = try OriginURL.check(text)
            } catch {
                return Response.text(.badRequest, "urls: \(error)")
            }
            if let refusal = configuration.allowedHosts?.refusal(of: url) { return refusal.response }
            urls.append(url)
        }
        guard !urls.isEmpty else { return Response.text(.badRequest, "urls: the list is empty") }
        for url in urls {
            await preloader.preload(url, amount: amount, priority: asked.priority ?? 0, maximumBandwidth: asked.bandwidth)
        }
        return try Self.json(await preloader.jobs(for: urls))
    }
}

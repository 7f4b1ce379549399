import Foundation
import Hummingbird
import MediaCache

extension ProxyAPI {
    /// `POST`, `GET` and `DELETE /api/preload`.
    func registerPreload(on router: Router<ProxyRequestContext>) {
        router.post("/api/preload") { request, _ in try await preload(request) }
        router.get("/api/preload") { _, _ in try Self.json(await preloader.jobs) }
        router.delete("/api/preload") { request, _ in
            if let text = request.uri.queryParameters["url"].map(String.init) {
                guard let url = PreloadRequest.url(from: text) else {
                    return ProxyResponder.text(.badRequest, "?url= needs an http or https URL\n")
                }
                await preloader.cancel(url)
            } else {
                await preloader.cancelAll()
            }
            return try Self.json(await preloader.jobs)
        }
    }

    private func preload(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let asked: PreloadRequest
        do {
            asked = try APIJSON.decoder().decode(PreloadRequest.self, from: Data(buffer: body))
        } catch {
            return ProxyResponder.text(.badRequest, "the body must be JSON like {\"urls\": [\"https://…\"], \"seconds\": 5}\n")
        }
        guard let amount = asked.amount else {
            return ProxyResponder.text(.badRequest, "give exactly one of a positive \"seconds\", a positive \"bytes\" or \"full\": true\n")
        }
        var urls: [URL] = []
        for text in asked.urls {
            guard let url = PreloadRequest.url(from: text) else {
                return ProxyResponder.text(.badRequest, "\(text) is not an http or https URL\n")
            }
            if let refusal = ProxyResponder.refusal(of: url, allowedHosts: configuration.allowedHosts) { return refusal }
            urls.append(url)
        }
        guard !urls.isEmpty else { return ProxyResponder.text(.badRequest, "\"urls\" is empty\n") }
        for url in urls {
            await preloader.preload(url, amount: amount, priority: asked.priority ?? 0)
        }
        return try Self.json(await preloader.jobs(for: urls))
    }
}

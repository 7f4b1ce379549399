import Foundation

extension MediaLoader {
    /// The whole resource straight from the origin, at most `maximumLength` bytes, stored
    /// nowhere, and what the origin said of it: a small resource (a playlist) still answered
    /// when the store cannot keep it (a full disk, a failing one).
    ///
    /// - Throws: ``LoaderError/tooLarge(url:limit:)`` past `maximumLength` bytes;
    ///   ``LoaderError/origin(_:)`` for the origin's failure, or an answer that is not the whole
    ///   resource.
    public func uncachedContent(of url: URL, maximumLength: Int64) async throws(LoaderError) -> (body: Data, info: ContentInfo) {
        do {
            let response = try await origin.fetch(OriginRequest(url: url))
            guard response.kind == .full else {
                throw LoaderError.origin(.invalidResponse("a request for the whole resource was answered \(response.kind)", url: url))
            }
            if let length = response.info.totalLength, length > maximumLength { throw LoaderError.tooLarge(url: url, limit: maximumLength) }
            var body = Data()
            for try await chunk in response.body {
                guard Int64(body.count + chunk.count) <= maximumLength else { throw LoaderError.tooLarge(url: url, limit: maximumLength) }
                body.append(chunk)
            }
            return (body, response.info)
        } catch let error as LoaderError {
            throw error
        } catch {
            throw .origin(OriginError.failure(error, url: url))
        }
    }
}

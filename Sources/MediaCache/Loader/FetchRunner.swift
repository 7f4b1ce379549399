import Foundation

/// Drives one origin transfer for a ``ResourceLoader``: sends the request, writes the body
/// into the store as it arrives, reports progress, and resumes from the byte where a broken
/// transfer stopped.
struct FetchRunner: Sendable {
    let id: FetchPlan.FetchID
    let loader: ResourceLoader
    /// Whether to ask for a byte range; a sequential fill asks for the whole resource.
    let isRanged: Bool

    private var url: URL { loader.url }
    private var key: ResourceKey { loader.key }
    private var store: MediaStore { loader.store }
    private var configuration: LoaderConfiguration { loader.configuration }

    /// What one request ended with.
    private enum Outcome {
        /// Stop: the resource ended (at `endOfResource` when its length was unknown), or the
        /// fetch was cancelled or is no longer needed.
        case finished(endOfResource: Int64?)
        /// The request's window arrived whole; more may follow.
        case windowDone(at: Int64)
        /// The transfer broke at `position`; try again from there.
        case broken(OriginError, position: Int64)
    }

    func run(from start: Int64, to end: Int64?) async {
        var position = start
        var attempt = 1
        var result: (endOfResource: Int64?, failure: LoaderError?) = (nil, nil)
        while true {
            let window = isRanged ? min(end ?? .max, position + min(configuration.requestWindow, .max - position)) : nil
            do {
                switch try await transfer(from: position, to: window) {
                case .finished(let endOfResource):
                    result.endOfResource = endOfResource
                case .windowDone(let reached):
                    attempt = 1
                    position = reached
                    if end.map({ position < $0 }) ?? true, await loader.isNeeded(id) { continue }
                case .broken(let error, let reached):
                    attempt = reached > position ? 2 : attempt + 1
                    position = reached
                    if let delay = configuration.retry.delay(beforeAttempt: attempt), !Task.isCancelled {
                        configuration.logger.info("transfer broke; retrying", metadata: [
                            "url": "\(url)", "at": "\(position)", "attempt": "\(attempt)", "error": "\(error)"])
                        do { try await configuration.clock.sleep(for: delay) } catch { break }
                        continue
                    }
                    result.failure = .origin(error)
                }
            } catch {
                result.failure = error
            }
            break
        }
        await loader.fetchEnded(id, endOfResource: result.endOfResource, failure: Task.isCancelled ? nil : result.failure)
    }

    /// One request and its body.
    private func transfer(from requested: Int64, to end: Int64?) async throws(LoaderError) -> Outcome {
        let validator = (try? store.record(for: key))?.contentInfo.ifRangeValidator
        let response: OriginResponse
        do {
            let request = isRanged
                ? OriginRequest(url: url, offset: requested, end: end, ifRange: validator)
                : OriginRequest(url: url)
            response = try await loader.origin.fetch(request)
        } catch {
            if Task.isCancelled { return .finished(endOfResource: nil) }
            let failure = error as? OriginError ?? .transport("\(error)", url: url)
            guard failure.isTransient else { throw .origin(failure) }
            return .broken(failure, position: requested)
        }
        guard let accepted = try await loader.accept(response.kind, info: response.info, fetch: id,
                                                     requestedOffset: requested) else {
            return .finished(endOfResource: nil)
        }
        var position = accepted.offset
        do {
            for try await chunk in response.body {
                var bytes = chunk
                let overflow = accepted.limit.map { position + Int64(bytes.count) > $0 } ?? false
                if overflow, let limit = accepted.limit { bytes = bytes.prefix(Int(limit - position)) }
                try store.write(bytes, at: position, to: key, generation: accepted.generation)
                loader.statistics.fetchedFromOrigin(bytes.count, of: key)
                position += Int64(bytes.count)
                if overflow {
                    throw LoaderError.origin(.invalidResponse("the body is longer than announced", url: url))
                }
                guard await loader.wrote(fetch: id, upTo: position) else { return .finished(endOfResource: nil) }
            }
        } catch let error as LoaderError {
            throw error
        } catch let error as MediaStoreError {
            if case .staleGeneration = error { return .finished(endOfResource: nil) }
            throw .store(error)
        } catch {
            if Task.isCancelled { return .finished(endOfResource: nil) }
            return .broken(error as? OriginError ?? .transport("\(error)", url: url), position: position)
        }
        if let limit = accepted.limit, position < limit {
            return .broken(.transport("the body ended at byte \(position) of \(limit)", url: url),
                           position: position)
        }
        if let end, position >= end { return .windowDone(at: position) }
        return .finished(endOfResource: position)
    }
}

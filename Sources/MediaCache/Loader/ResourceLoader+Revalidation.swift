import Foundation

extension ResourceLoader {
    /// The whole content, confirmed by the origin within the age `maximumAge` allows for it.
    ///
    /// Concurrent callers share one revalidation.
    func revalidatedContent(
        maximumLength: Int64, maximumAge: @escaping @Sendable (Data) -> Duration
    ) async throws(LoaderError) -> RevalidatedContent {
        let task = revalidation ?? Task { try await self.revalidate(maximumLength: maximumLength, maximumAge: maximumAge) }
        revalidation = task
        defer { if revalidation == task { revalidation = nil } }
        do {
            return try await task.value
        } catch {
            throw error as? LoaderError ?? .origin(OriginError.failure(error, url: url))
        }
    }

    private func revalidate(
        maximumLength: Int64, maximumAge: @Sendable (Data) -> Duration
    ) async throws(LoaderError) -> RevalidatedContent {
        if let length = try storedRecord()?.contentInfo.totalLength, length > maximumLength {
            throw .tooLarge(url: url, limit: maximumLength)
        }
        guard let stored = try storedCopy(maximumLength: maximumLength) else {
            return try await firstRead(maximumLength: maximumLength)
        }
        if let age = stored.age, age <= maximumAge(stored.body) { return stored }
        // One attempt: when the origin fails, the stored copy is the answer, at once.
        let info = stored.record.contentInfo
        let request = info.hasValidator ? OriginRequest.revalidation(of: url, stored: info) : OriginRequest(url: url)
        let response: OriginResponse
        do {
            response = try await origin.fetch(request)
        } catch {
            let failure = OriginError.failure(error, url: url)
            return try stale(stored, failure)
        }
        if case .notModified = response.kind {
            do { try store.markValidated(key) } catch { throw .store(error) }
            return RevalidatedContent(record: try storedRecord() ?? stored.record, body: stored.body, source: .cache, age: .zero)
        }
        do throws(LoaderError) {
            return try await replace(with: response, maximumLength: maximumLength)
        } catch {
            guard let failure = error.origin, failure.isTransient else { throw error }
            return try stale(stored, failure)
        }
    }

    /// The bytes the first read of a resource asks for: the whole of most playlists in one
    /// request, and the most a resource too large to read costs before its length is known.
    static let firstReadLength: Int64 = 256 << 10

    /// The content read from the origin with nothing stored to confirm: its first
    /// ``firstReadLength`` bytes, which are the whole of it or tell its length (past
    /// `maximumLength`, it is refused before more is read). The rest follows under `If-Range`,
    /// so that two versions never mix; without a validator to ask it with, the whole is
    /// asked for again. An origin that ignores ranges answers with the whole at once.
    private func firstRead(maximumLength: Int64) async throws(LoaderError) -> RevalidatedContent {
        let asked = ByteRequest(offset: 0, length: min(Self.firstReadLength, maximumLength + 1))
        let first = try await fetchWithRetries(OriginRequest(url: url, bytes: asked))
        switch first.kind {
        case .full:
            return try await replace(with: first, maximumLength: maximumLength)
        case .partial(offset: 0, let length?) where length == first.info.totalLength:
            return try await replace(with: first, maximumLength: maximumLength)
        case .partial(offset: 0, _):
            guard let length = first.info.totalLength else { break }
            if length > maximumLength { throw .tooLarge(url: url, limit: maximumLength) }
            guard let validator = first.info.ifRangeValidator else { break }
            let head = try await body(of: first, maximumLength: maximumLength)
            let rest = try await fetchWithRetries(
                OriginRequest(
                    url: url, bytes: ByteRequest(offset: Int64(head.count)),
                    ifRange: validator))
            switch rest.kind {
            case .partial(offset: let offset, _) where offset == Int64(head.count):
                let body = try await head + self.body(of: rest, maximumLength: maximumLength - offset)
                guard Int64(body.count) == length else {
                    throw .origin(.invalidResponse("the body ended at byte \(body.count) of \(length)", url: url))
                }
                return try replace(with: body, info: first.info)
            case .full:
                return try await replace(with: rest, maximumLength: maximumLength)
            case .partial, .rangeNotSatisfiable, .notModified:
                break
            }
        case .partial, .notModified:
            throw .origin(.invalidResponse("a request for the first bytes was answered with \(first.kind)", url: url))
        case .rangeNotSatisfiable:
            break
        }
        return try await replace(with: fetchWithRetries(OriginRequest(url: url)), maximumLength: maximumLength)
    }

    /// The complete stored copy, `nil` when there is none.
    private func storedCopy(maximumLength: Int64) throws(LoaderError) -> RevalidatedContent? {
        guard let record = try storedRecord(), record.isComplete, let length = record.contentInfo.totalLength else {
            return nil
        }
        let body: Data
        do { body = try store.read(ByteRange(0, length), from: key, generation: record.generation) } catch { throw .store(error) }
        let age = record.validatedAt.map { Duration.seconds(max(0, configuration.clock.now().timeIntervalSince($0))) }
        return RevalidatedContent(record: record, body: body, source: .cache, age: age)
    }

    /// The stored copy served without confirmation: only when the origin is unreachable or
    /// failing (transport failures, 5xx); other answers, such as `404`, are passed on.
    private func stale(_ stored: RevalidatedContent, _ failure: OriginError) throws(LoaderError) -> RevalidatedContent {
        guard failure.isTransient else { throw .origin(failure) }
        configuration.logger.notice(
            "origin unreachable; serving the stored copy",
            metadata: ["key": "\(key)", "error": "\(failure)"])
        var stale = stored
        stale.staleReason = .origin(failure)
        return stale
    }

    /// Reads the whole body of `response` and stores it in place of the stored content.
    private func replace(with response: OriginResponse, maximumLength: Int64) async throws(LoaderError) -> RevalidatedContent {
        switch response.kind {
        case .partial(offset: 0, let length) where length == nil || response.info.totalLength.map({ $0 == length }) ?? true:
            break
        case .full:
            break
        case .partial, .rangeNotSatisfiable, .notModified:
            throw .origin(.invalidResponse("a request for the whole resource was answered with \(response.kind)", url: url))
        }
        if let length = response.info.totalLength, length > maximumLength { throw .tooLarge(url: url, limit: maximumLength) }
        return try replace(with: await body(of: response, maximumLength: maximumLength), info: response.info)
    }

    /// The body of `response`, refused past `maximumLength` bytes.
    private func body(of response: OriginResponse, maximumLength: Int64) async throws(LoaderError) -> Data {
        var body = Data()
        do {
            for try await chunk in response.body {
                body.append(chunk)
                if Int64(body.count) > maximumLength { throw LoaderError.tooLarge(url: url, limit: maximumLength) }
            }
        } catch let error as LoaderError {
            throw error
        } catch {
            throw .origin(OriginError.failure(error, url: url))
        }
        return body
    }

    /// Stores `body`, which the origin described as `info`, in place of the stored content.
    private func replace(with body: Data, info: ContentInfo) throws(LoaderError) -> RevalidatedContent {
        guard !body.isEmpty else { throw .origin(.invalidResponse("the body is empty", url: url)) }
        statistics.fetchedFromOrigin(body.count, of: key)
        let before = try storedRecord()?.generation
        let generation: Generation
        do { generation = try store.replaceContent(of: url, with: body, info: info) } catch { throw .store(error) }
        if let before, before != generation { contentMoved(to: generation) }
        guard let record = try storedRecord() else { throw .store(.unknownResource(key)) }
        return RevalidatedContent(record: record, body: body, source: .network, age: .zero)
    }
}

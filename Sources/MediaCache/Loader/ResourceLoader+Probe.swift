import Foundation

extension ResourceLoader {
    /// The stored record, after asking the origin when nothing is known yet.
    ///
    /// The probe is `GET` with `Range: bytes=0-1` (its two bytes are kept); where the origin
    /// refuses that, `HEAD`, then a plain `GET` whose body is not read. Concurrent callers
    /// share one probe; the first caller's purpose is the one its kept bytes count for.
    func contentRecord(purpose: ReadPurpose) async throws(LoaderError) -> ResourceRecord {
        if let record = try storedRecord() { return record }
        let task = probe ?? Task { try await self.runProbe(purpose: purpose) }
        probe = task
        defer { if probe == task { probe = nil } }
        do {
            return try await task.value
        } catch {
            throw error as? LoaderError ?? .origin(OriginError.failure(error, url: url))
        }
    }

    /// Statuses after which the next, simpler probe is tried instead of giving up.
    private static let refusals: Set<Int> = [400, 403, 405, 406, 416, 501]

    private func runProbe(purpose: ReadPurpose) async throws(LoaderError) -> ResourceRecord {
        let requests = [
            OriginRequest(url: url, bytes: ByteRequest(offset: 0, length: 2)),
            OriginRequest(url: url, method: .head),
            OriginRequest(url: url),
        ]
        var lastError = OriginError.invalidResponse("no probe was answered", url: url)
        for request in requests {
            do {
                let response = try await fetchWithRetries(request)
                if case .rangeNotSatisfiable = response.kind { continue }
                try await keep(response, purpose: purpose)
                if let record = try storedRecord() { return record }
            } catch {
                guard let refusal = error.origin, let status = refusal.status, Self.refusals.contains(status) else { throw error }
                lastError = refusal
            }
        }
        throw .origin(lastError)
    }

    /// Records the probe's content information and the bytes of a ranged answer.
    private func keep(_ response: OriginResponse, purpose: ReadPurpose) async throws(LoaderError) {
        let generation: Generation
        do { generation = try store.setContentInfo(response.info, for: url) } catch { throw .store(error) }
        guard case .partial(let offset, let length) = response.kind, offset == 0 else { return }
        var bytes = Data()
        do {
            for try await chunk in response.body {
                bytes.append(chunk)
                if bytes.count >= 2 { break }
            }
        } catch {
            return
        }
        let kept = bytes.prefix(Int(min(length ?? 2, 2)))
        do { try store.write(kept, at: 0, to: key, generation: generation) } catch { throw .store(error) }
        statistics.fetchedFromOrigin(kept.count, of: key)
        if purpose == .preload {
            statistics.delivered(ByteChunk(offset: 0, bytes: Data(kept), source: .network), of: key, for: .preload)
        }
    }

    /// Sends `request`, retrying transient failures as the retry policy says.
    func fetchWithRetries(_ request: OriginRequest) async throws(LoaderError) -> OriginResponse {
        var attempt = 1
        while true {
            do {
                return try await origin.fetch(request)
            } catch {
                let failure = OriginError.failure(error, url: url)
                attempt += 1
                guard failure.isTransient, let delay = configuration.retry.delay(beforeAttempt: attempt) else {
                    throw .origin(failure)
                }
                do { try await configuration.clock.sleep(for: delay) } catch { throw .cancelled }
            }
        }
    }
}

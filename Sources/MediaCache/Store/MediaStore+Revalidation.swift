import Foundation

extension MediaStore {
    /// Records that the origin confirmed the stored content of `key` now (a `304 Not Modified`).
    public func markValidated(_ key: ResourceKey) throws(MediaStoreError) {
        let slot = try slot(for: key)
        let now = clock.now()
        try indexOperation("mark validated") { try index.setValidated(at: now, id: slot.id) }
        slot.state.withLock { $0.validatedAt = now }
    }

    /// Stores `body` as the whole content of `url`, described by `info` and confirmed by the
    /// origin now, in place of whatever was stored: unless every stored byte is the same in
    /// `body` (a probe's first bytes, an unchanged copy), the resource moves to a new
    /// generation first, so old and new content never mix, whatever the validators say.
    ///
    /// For small resources read whole, such as playlists, which may change without a
    /// validator changing.
    ///
    /// - Returns: The generation `body` was written for.
    /// - Throws: ``MediaStoreError/invalidContentInfo(key:reason:)`` for an empty body.
    @discardableResult
    public func replaceContent(of url: URL, with body: Data, info: ContentInfo) throws(MediaStoreError) -> Generation {
        let key = key(for: url)
        guard !body.isEmpty else { throw .invalidContentInfo(key: key, reason: "the content is empty") }
        var info = info
        info.totalLength = Int64(body.count)
        let slot = try slot(for: key, creatingFrom: url, info: info)
        let (available, current, stored) = slot.state.withLock { ($0.available, $0.generation, $0.info) }
        let generation: Generation
        if !stored.isDifferentVersion(from: info), isStored(available, of: key, generation: current, within: body) {
            let now = clock.now()
            try indexOperation("replace content") {
                try index.updateContentInfo(id: slot.id, info: info)
                try index.setValidated(at: now, id: slot.id)
            }
            slot.state.withLock { state in
                state.info = info
                state.validatedAt = now
            }
            generation = current
        } else {
            generation = try startNewGeneration(of: slot, info: info, validatedAt: clock.now())
        }
        try write(body, at: 0, to: key, generation: generation)
        return generation
    }

    /// Whether the bytes of `ranges` stored for `key` are the same bytes in `body`.
    private func isStored(_ ranges: ByteRangeSet, of key: ResourceKey, generation: Generation, within body: Data) -> Bool {
        ranges.ranges.allSatisfy { range in
            guard range.upperBound <= Int64(body.count) else { return false }
            let stored = try? read(range, from: key, generation: generation)
            return stored == body[(body.startIndex + Int(range.lowerBound))..<(body.startIndex + Int(range.upperBound))]
        }
    }
}

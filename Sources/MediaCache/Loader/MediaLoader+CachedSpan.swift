import Foundation

extension MediaLoader {
    /// The bytes of `range` of the resource `record` describes as one span of the store's data
    /// file, when the store holds every one of them in `record`'s generation and can send
    /// files; `nil` otherwise (a gap, an encrypted store, a file system without descriptors, a
    /// resource changed or removed since `record` was read).
    ///
    /// A cache hit answered without a reader: a server that finds every byte of a response
    /// cached sends them on the spot, with no task and no hand-over. The statistics count the
    /// span's bytes as the caller reports them sent (``FileChunk/sent(_:)``), as a read's
    /// spans do; anything short of a whole hit goes through ``read(_:_:purpose:)``.
    ///
    /// ```swift
    /// if let record = loader.storedRecord(for: url),
    ///    let chunk = loader.cachedSpan(ByteRange(0, 1 << 20), of: record) {
    ///     send(chunk.span)                         // sendfile; chunk.sent(range) as it leaves
    /// }
    /// ```
    public func cachedSpan(_ range: ByteRange, of record: ResourceRecord, purpose: ReadPurpose = .playback) -> FileChunk? {
        guard range.length > 0, record.available.contains(range),
            let span = try? store.fileSpan(range, of: record.key, generation: record.generation)
        else { return nil }
        var chunk = FileChunk(span: span, source: .cache)
        let (recorder, key) = (recorder, record.key)
        chunk.onSent = { sent in recorder.delivered(sent, source: .cache, of: key, for: purpose) }
        return chunk
    }
}

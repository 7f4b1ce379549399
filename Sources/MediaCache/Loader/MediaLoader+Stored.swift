import Foundation

extension MediaLoader {
    /// What the store holds of `url` now, or `nil` when it holds nothing (or cannot be read);
    /// the origin is not asked.
    ///
    /// ```swift
    /// if let record = loader.storedRecord(for: url), record.isComplete { playOffline(url) }
    /// ```
    public func storedRecord(for url: URL) -> ResourceRecord? {
        try? store.record(for: store.key(for: url))
    }

    /// The cached bytes of `range` of the resource `record` describes, in its generation;
    /// `nil` when any of them is not cached. For small reads (a signature, a header): a
    /// read's bytes come through ``read(_:_:purpose:)``, which fills gaps and counts them.
    public func cachedBytes(_ range: ByteRange, of record: ResourceRecord) -> Data? {
        guard record.available.contains(range) else { return nil }
        return try? store.read(range, from: record.key, generation: record.generation)
    }
}

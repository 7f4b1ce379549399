import Foundation

extension MediaStore {
    /// Records in the index the spans that a process of this boot session wrote but did not
    /// commit before it died (see ``SpanJournal``), then starts the journal for this process.
    ///
    /// Each data file is flushed before its spans are recorded, as in a commit. A span of a
    /// resource that is gone or moved to another generation is dropped, and a span is cut at
    /// the end of its data file.
    func adoptJournal() throws(MediaStoreError) {
        guard let journal else { return }
        let entries = Dictionary(grouping: journal.leftEntries(), by: \.id)
        if !entries.isEmpty {
            let resources = try indexOperation("recover journal") { try index.allResources() }
            let generations = Dictionary(uniqueKeysWithValues: resources.map { ($0.id, $0.generation) })
            let pinned = Set(resources.filter(\.isPinned).map(\.id))
            var commit = StoreIndex.Commit()
            var recovered: Int64 = 0
            for (id, written) in entries {
                guard let generation = generations[id] else { continue }
                let recorded = try indexOperation("recover journal") { try index.spans(of: id) }
                let path = dataPath(for: id, pinned: pinned.contains(id))
                let fresh = try freshSpans(written.filter { $0.generation == generation }.map(\.range), in: path, beyond: recorded)
                guard !fresh.isEmpty else { continue }
                let file: any RandomAccessFile
                do throws(IOError) {
                    file = try fileSystem.openFile(at: path)
                    defer { file.close() }
                    try file.synchronize()
                } catch {
                    configuration.logger.warning(
                        "could not flush a data file to recover its journal",
                        metadata: ["file": "\(path)", "error": "\(error)"])
                    continue
                }
                commit.spans.append(
                    .init(
                        id: id, generation: generation,
                        merged: StoreIndex.Commit.Spans.merged(fresh, joining: recorded)))
                recovered += fresh.coveredLength
            }
            if !commit.spans.isEmpty {
                _ = try indexOperation("recover journal") { try index.record(commit) }
                configuration.logger.notice(
                    "recovered bytes written before an unclean exit",
                    metadata: ["bytes": "\(recovered)", "resources": "\(commit.spans.count)"])
            }
        }
        do {
            try journal.start()
        } catch {
            configuration.logger.warning(
                "could not start the write journal; a crash may cost uncommitted bytes",
                metadata: ["error": "\(error)"])
        }
    }

    /// The parts of `ranges` outside the `recorded` spans, within the data file at `path`.
    private func freshSpans(_ ranges: [ByteRange], in path: String, beyond recorded: ByteRangeSet) throws(MediaStoreError) -> ByteRangeSet {
        guard !ranges.isEmpty else { return ByteRangeSet() }
        let size: Int64
        do {
            size = capacity(ofDataFileSize: try fileSystem.sizeOfFile(at: path) ?? 0)
        } catch {
            throw MediaStoreError.file(error, key: nil)
        }
        var fresh = ByteRangeSet()
        for range in ranges {
            guard let inFile = range.intersection(ByteRange(0, size)) else { continue }
            recorded.gaps(in: inFile).forEach { fresh.insert($0) }
        }
        return fresh
    }
}

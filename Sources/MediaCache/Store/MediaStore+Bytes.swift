import Foundation

extension MediaStore {
    /// Writes bytes of generation `generation` of `key` at `offset`.
    ///
    /// The bytes are readable in this process as soon as this returns and recorded in the
    /// index with the next commit; if this process is killed first, the next open recovers
    /// them. A failed write records nothing.
    ///
    /// - Throws: ``MediaStoreError/staleGeneration(key:written:current:)`` when the resource
    ///   moved to a new generation, ``MediaStoreError/beyondEnd(key:range:totalLength:)`` past
    ///   the known length, ``MediaStoreError/diskFull(key:underlying:)`` when the disk is full.
    public func write(_ bytes: Data, at offset: Int64, to key: ResourceKey, generation: Generation) throws(MediaStoreError) {
        guard !bytes.isEmpty else { return }
        let range = ByteRange(offset: offset, length: Int64(bytes.count))
        let slot = try slot(for: key)
        let recorded = try slot.io.withSharedLock { () throws(MediaStoreError) -> Int64 in
            try slot.state.withLock { state throws(MediaStoreError) in
                guard !state.isRemoved else { throw .unknownResource(key) }
                guard state.generation == generation else {
                    throw .staleGeneration(key: key, written: generation, current: state.generation)
                }
                if let length = state.info.totalLength, range.upperBound > length {
                    throw .beyondEnd(key: key, range: range, totalLength: length)
                }
            }
            // What the write makes durable: all of it, or the encrypted blocks it completes (the
            // rest of its bytes wait in memory, readable but not recorded).
            var durable = [range]
            var forgotten: [ByteRange] = []
            if let encryption = configuration.encryption {
                let (length, sealed) = slot.state.withLock { state in
                    var sealed = state.committed
                    sealed.formUnion(state.pending)
                    return (state.info.totalLength, sealed)
                }
                let outcome = try slot.withSealedFile(on: fileSystem, encryption: encryption) { file throws(IOError) in
                    try file.write(bytes, at: offset, totalLength: length, durable: sealed)
                }
                (durable, forgotten) = (outcome.sealed, outcome.dropped)
            } else {
                try slot.withFile(on: fileSystem) { file throws(IOError) in
                    try bytes.withUnsafeBytes { buffer in Result { () throws(IOError) in try file.write(buffer, at: offset) } }.get()
                }
            }
            let now = clock.now()
            slot.state.withLock { state in
                state.available.insert(range)
                forgotten.forEach { state.available.remove($0) }
                durable.forEach { state.pending.insert($0) }
                state.lastAccess = now
                state.unrecordedAccess = now
            }
            for span in durable {
                journal?.append(SpanJournal.Entry(id: slot.id, generation: generation, range: span))
            }
            return durable.reduce(0) { $0 + $1.length }
        }
        noteUnrecordedChange(bytes: recorded)
    }

    /// Reads `range` of `key`, which must be entirely available.
    ///
    /// - Parameters:
    ///   - range: The bytes to read.
    ///   - key: The resource.
    ///   - generation: When given, the read fails unless the resource still has it.
    /// - Throws: ``MediaStoreError/notCached(key:missing:)`` naming the missing ranges.
    public func read(_ range: ByteRange, from key: ResourceKey, generation: Generation? = nil) throws(MediaStoreError) -> Data {
        let slot = try slot(for: key)
        let read = try slot.io.withSharedLock { () throws(MediaStoreError) -> Result<Data, SealedDataFile.ReadFailure> in
            try checkAvailable(range, of: slot, generation: generation)
            if let encryption = configuration.encryption {
                return try slot.withSealedFile(on: fileSystem, encryption: encryption) { file in
                    Result { () throws(SealedDataFile.ReadFailure) in try file.read(range) }
                }
            }
            return .success(
                try slot.withFile(on: fileSystem) { file throws(IOError) in
                    try file.read(count: Int(range.length), at: range.lowerBound)
                })
        }
        let data: Data
        switch read {
        case .success(let bytes):
            data = bytes
        case .failure(.io(let error)):
            throw MediaStoreError.file(error, key: key)
        case .failure(.unreadable(let block)):
            // Damaged, or sealed with another key: not cached, so fetched again; never served.
            let lost = ByteRange(block.lowerBound, max(block.lowerBound, min(block.upperBound, range.upperBound)))
            try dropSpans(in: block, of: slot)
            throw .dataMissing(key: key, range: lost)
        }
        guard data.count == range.length else {
            let lost = ByteRange(range.lowerBound + Int64(data.count), range.upperBound)
            try dropSpans(from: lost.lowerBound, of: slot)
            throw .dataMissing(key: key, range: lost)
        }
        noteAccess(to: slot)
        return data
    }

    /// The cached bytes of `range` of `key` where they lie in its data file, for a server to
    /// send without reading them (see ``StoredFileSpan``); `nil` when the file system has no
    /// descriptor to send, or the file is shorter than the index claims (``read(_:from:generation:)``
    /// then finds and reports the loss). Same rules and errors as ``read(_:from:generation:)``.
    public func fileSpan(
        _ range: ByteRange, of key: ResourceKey, generation: Generation? = nil
    )
        throws(MediaStoreError) -> StoredFileSpan?
    {
        // Encrypted bytes must be opened before they are sent.
        guard configuration.encryption == nil else { return nil }
        let slot = try slot(for: key)
        let span = try slot.io.withSharedLock { () throws(MediaStoreError) -> StoredFileSpan? in
            try checkAvailable(range, of: slot, generation: generation)
            return try slot.withFile(on: fileSystem) { file throws(IOError) -> StoredFileSpan? in
                guard let descriptor = try file.duplicateDescriptor() else { return nil }
                let span = StoredFileSpan(descriptor: descriptor, offset: range.lowerBound, length: range.length)
                return try file.size() >= range.upperBound ? span : nil
            }
        }
        if span != nil { noteAccess(to: slot) }
        return span
    }

    /// Throws unless `slot` holds all of `range`, of `generation` when one is given.
    private func checkAvailable(_ range: ByteRange, of slot: ResourceSlot, generation: Generation?) throws(MediaStoreError) {
        try slot.state.withLock { state throws(MediaStoreError) in
            guard !state.isRemoved else { throw .unknownResource(slot.key) }
            if let generation, generation != state.generation {
                throw .staleGeneration(key: slot.key, written: generation, current: state.generation)
            }
            let missing = state.available.gaps(in: range)
            guard missing.isEmpty else { throw .notCached(key: slot.key, missing: missing) }
        }
    }

    private func noteAccess(to slot: ResourceSlot) {
        let now = clock.now()
        slot.state.withLock { state in
            state.lastAccess = now
            state.unrecordedAccess = now
        }
        noteUnrecordedChange(bytes: 0)
    }

    /// Forgets the spans in `block`, an encrypted block that cannot be opened.
    private func dropSpans(in block: ByteRange, of slot: ResourceSlot) throws(MediaStoreError) {
        try slot.io.withExclusiveLock { () throws(MediaStoreError) in
            let committed = slot.state.withLock { state in
                state.committed.remove(block)
                state.pending.remove(block)
                state.available.remove(block)
                return state.committed
            }
            try indexOperation("drop unreadable block") { try index.replaceSpans(of: slot.id, with: committed) }
        }
        configuration.logger.warning(
            "encrypted block failed authentication; it will be fetched again",
            metadata: ["key": "\(slot.key)", "block": "\(block)"])
    }

    /// Forgets every span at or past `offset`: the data file ends there.
    private func dropSpans(from offset: Int64, of slot: ResourceSlot) throws(MediaStoreError) {
        try slot.io.withExclusiveLock { () throws(MediaStoreError) in
            try indexOperation("drop lost spans") { try index.truncateSpans(of: slot.id, to: offset) }
            slot.state.withLock { state in
                let lost = ByteRange(offset, Int64.max)
                state.committed.remove(lost)
                state.pending.remove(lost)
                state.available.remove(lost)
            }
        }
        configuration.logger.warning(
            "data file shorter than its index; spans dropped",
            metadata: ["key": "\(slot.key)", "from": "\(offset)"])
    }
}

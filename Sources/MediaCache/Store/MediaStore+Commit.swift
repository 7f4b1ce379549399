import Foundation

extension MediaStore {
    /// Flushes written data files and records their spans and access times in the index, then
    /// applies the eviction policy.
    ///
    /// Runs on its own by size and by time; call it to make everything written so far durable.
    /// A resource whose file cannot be flushed keeps its spans pending and the others are
    /// recorded; the first such failure is then thrown.
    public func commit() throws(MediaStoreError) {
        try commitPending()
        try evict()
    }

    /// Commits everything unrecorded; the flusher task calls this once per
    /// ``MediaStore/Configuration/commitInterval``, so nothing waits longer than that.
    func commitOnTimer() {
        guard schedule.withLock({ $0.firstUnrecordedChange != nil }) else {
            checkpointIndexSoonIfLarge()
            return
        }
        _ = commitLoggingFailure()
    }

    /// Once the index's write-ahead log grew large, checkpoints it on ``checkpointQueue``
    /// (``StoreIndex/checkpointIfLarge()``): no request waits for the flushes a checkpoint
    /// makes, and the writes that grew the log go on meanwhile. Called after each commit and
    /// each resource created, the writes that grow the log most.
    func checkpointIndexSoonIfLarge() {
        guard index.logNeedsCheckpoint else { return }
        let isQueued = schedule.withLock { schedule in
            defer { schedule.isCheckpointQueued = true }
            return schedule.isCheckpointQueued
        }
        guard !isQueued else { return }
        checkpointQueue.async { [weak self] in
            guard let self else { return }
            defer { schedule.withLock { $0.isCheckpointQueued = false } }
            guard !catalog.withLock(\.isClosed) else { return }
            do {
                try index.checkpointIfLarge()
            } catch {
                configuration.logger.warning("could not checkpoint the index", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Notes bytes written or an access; once a batch is full, a commit is queued on
    /// ``commitQueue``, so writers never wait for a flush.
    func noteUnrecordedChange(bytes: Int64) {
        let now = clock.now()
        schedule.withLock { schedule in
            schedule.pendingBytes += bytes
            if schedule.firstUnrecordedChange == nil { schedule.firstUnrecordedChange = now }
            guard schedule.pendingBytes >= configuration.commitBatchBytes, !schedule.isBatchCommitQueued else { return }
            schedule.isBatchCommitQueued = true
            commitQueue.async { [weak self] in self?.commitFullBatches() }
        }
    }

    /// Commits while full batches are waiting, then marks the batch commit finished.
    private func commitFullBatches() {
        while true {
            let full = schedule.withLock { schedule in
                let full = schedule.pendingBytes >= configuration.commitBatchBytes
                if !full { schedule.isBatchCommitQueued = false }
                return full
            }
            guard full else { return }
            guard commitLoggingFailure() else {
                schedule.withLock { $0.isBatchCommitQueued = false }
                return
            }
        }
    }

    /// Waits for the commits queued so far, a full batch's among them, to finish.
    func batchCommitFinished() async {
        await onCommitQueue {}
    }

    /// Runs `work` on ``commitQueue`` after what is queued there, and waits for it.
    func onCommitQueue(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            commitQueue.async {
                work()
                continuation.resume()
            }
        }
    }

    /// Commits; a failure is logged (the spans stay pending) and reported as `false`.
    private func commitLoggingFailure() -> Bool {
        do {
            try commit()
            return true
        } catch  where error.code == .closed {
            return false
        } catch {
            configuration.logger.error("commit failed; spans stay pending", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// One resource's share of a commit, taken under its lock.
    private struct Snapshot {
        var slot: ResourceSlot
        var generation: Generation
        var pending: ByteRangeSet
        var merged: [ByteRange]
        var access: Date?
    }

    func commitPending() throws(MediaStoreError) {
        commitLock.lock()
        defer { commitLock.unlock() }
        guard !catalog.withLock(\.isClosed) else { throw .closed }
        journal?.commitStarting()
        schedule.withLock { schedule in
            schedule.pendingBytes = 0
            schedule.firstUnrecordedChange = nil
        }
        let slots = catalog.withLock { Array($0.slots.values) }
        var firstFailure: MediaStoreError?
        var snapshots: [Snapshot] = []
        for slot in slots {
            var snapshot = slot.state.withLock { state in
                Snapshot(
                    slot: slot, generation: state.generation, pending: state.pending,
                    merged: StoreIndex.Commit.Spans.merged(state.pending, joining: state.committed),
                    access: state.unrecordedAccess)
            }
            guard !snapshot.pending.isEmpty || snapshot.access != nil else { continue }
            if !snapshot.pending.isEmpty {
                do {
                    try slot.io.withSharedLock { () throws(MediaStoreError) in
                        try slot.withFile(on: fileSystem) { file throws(IOError) in try file.synchronize() }
                    }
                } catch {
                    firstFailure = firstFailure ?? error
                    snapshot.pending = ByteRangeSet()
                    snapshot.merged = []
                }
            }
            snapshots.append(snapshot)
        }
        var commit = StoreIndex.Commit()
        for snapshot in snapshots {
            if !snapshot.merged.isEmpty {
                commit.spans.append(.init(id: snapshot.slot.id, generation: snapshot.generation, merged: snapshot.merged))
            }
            if let access = snapshot.access { commit.accessTimes[snapshot.slot.id] = access }
        }
        let recorded: Set<Int64>
        do {
            recorded = try indexOperation("commit") { try index.record(commit) }
        } catch {
            rescheduleAfterFailure()
            throw error
        }
        for snapshot in snapshots {
            snapshot.slot.state.withLock { state in
                if state.unrecordedAccess == snapshot.access { state.unrecordedAccess = nil }
                guard recorded.contains(snapshot.slot.id), state.generation == snapshot.generation else { return }
                state.committed.formUnion(snapshot.pending)
                for range in snapshot.pending.ranges { state.pending.remove(range) }
            }
            snapshot.slot.closeFileIfIdle()
        }
        if let firstFailure {
            rescheduleAfterFailure()
            throw firstFailure
        }
        journal?.commitSucceeded()
        checkpointIndexSoonIfLarge()
    }

    /// Keeps what stayed pending due for the next timed commit.
    private func rescheduleAfterFailure() {
        let now = clock.now()
        schedule.withLock { $0.firstUnrecordedChange = $0.firstUnrecordedChange ?? now }
    }
}

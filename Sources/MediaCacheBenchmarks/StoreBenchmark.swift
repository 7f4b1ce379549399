import Foundation
import MediaCache
import MediaCacheTesting

/// Store write and read throughput against plain positional file I/O of the same bytes.
///
/// Runs alternate between the two and every run starts after `sync()`, so neither side pays
/// for the other's write-back.
struct StoreBenchmark {
    let totalBytes = 256 << 20
    let chunkBytes = 256 << 10
    let url = URL(string: "https://bench.test/big.mp4")!
    var chunks: Int { totalBytes / chunkBytes }

    func run() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let chunk = TestPattern.data(offset: 0, length: chunkBytes, seed: 1)
        let plainPath = directory.appending("plain.data")
        let storePath = directory.appending("store")
        let files = LocalFileSystem()

        let (storeWrite, plainWrite) = try await Measure.interleaved(
            before: { next in
                if next == 0 { try? FileManager.default.removeItem(atPath: storePath) } else { try? files.removeFile(at: plainPath) }
                sync()
            },
            {
                let store = try openStore(storePath)
                let generation = try store.setContentInfo(ContentInfo(totalLength: Int64(totalBytes)), for: url)
                for index in 0..<chunks {
                    try store.write(chunk, at: Int64(index * chunkBytes), to: store.key(for: url), generation: generation)
                }
                try store.close()
            },
            {
                let file = try files.openFile(at: plainPath)
                defer { file.close() }
                for index in 0..<chunks {
                    try chunk.withUnsafeBytes { try file.write($0, at: Int64(index * chunkBytes)) }
                }
                try file.synchronize()
            })

        let plainFile = try files.openFile(at: plainPath)
        defer { plainFile.close() }
        let store = try openStore(storePath)
        defer { try? store.close() }
        let (storeRead, plainRead) = try await Measure.interleaved(
            before: { _ in },
            {
                for index in 0..<chunks {
                    let range = ByteRange(offset: Int64(index * chunkBytes), length: Int64(chunkBytes))
                    _ = try store.read(range, from: store.key(for: url))
                }
            },
            {
                for index in 0..<chunks {
                    _ = try plainFile.read(count: chunkBytes, at: Int64(index * chunkBytes))
                }
            })

        Measure.header(
            "Store throughput (\(totalBytes >> 20) MiB in \(chunkBytes >> 10) KiB chunks, median of 5)",
            ours: "MediaStore", reference: "plain pwrite/pread", ratioMeaning: "store / plain, higher is better")
        report("write, then commit with fsync", ours: storeWrite, reference: plainWrite)
        report("read (page cache warm)", ours: storeRead, reference: plainRead)
    }

    private func openStore(_ path: String) throws -> MediaStore {
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        return try MediaStore.open(at: path, configuration: configuration)
    }

    private func report(_ name: String, ours: Duration, reference: Duration) {
        let megabytes = Double(totalBytes) / 1_048_576
        let oursRate = megabytes / ours.timeInterval
        let referenceRate = megabytes / reference.timeInterval
        Measure.row(
            name, ours: String(format: "%.0f MiB/s", oursRate),
            reference: String(format: "%.0f MiB/s", referenceRate), ratio: oursRate / referenceRate)
    }
}

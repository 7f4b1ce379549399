import Foundation
import MediaCache
import MediaCacheHTTP
import MediaCacheTesting

/// The loader against direct access in the same run: cached reads against reading the data
/// file, cold reads against fetching straight from the same origin, origin bytes against unique
/// bytes for a seek-heavy pattern, and peak memory while streaming.
struct LoaderBenchmark {
    let length: Int64 = 256 << 20

    func run() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.appending("www"), withIntermediateDirectories: true)
        try writePatternFile(at: directory.appending("www/big.mp4"))
        let residentBefore = try Measure.peakResidentBytes()
        let nginx = try Nginx.start(root: directory.appending("www"), workDirectory: directory.path)
        defer { nginx.stop() }
        let http = HTTPOrigin()

        let cold = directory.appending("cold")
        let clean = { (_: Int) in
            try? FileManager.default.removeItem(atPath: cold)
            try? FileManager.default.removeItem(atPath: directory.appending("direct.data"))
            sync()
        }
        let (coldLoader, coldDirect) = try await Measure.interleaved(
            runs: 5, before: clean,
            {
                let store = try openStore(cold)
                let loader = MediaLoader(store: store, origin: http)
                try await drain(loader.read(nginx.url("/big.mp4"), ByteRequest(offset: 0)))
                try store.close()
            },
            {
                let response = try await http.fetch(OriginRequest(url: nginx.url("/big.mp4")))
                for try await _ in response.body {}
            })
        let (_, coldWritingDirect) = try await Measure.interleaved(
            runs: 5, before: clean, {},
            {
                let path = directory.appending("direct.data")
                let file = try LocalFileSystem().openFile(at: path)
                defer { file.close() }
                var offset: Int64 = 0
                let response = try await http.fetch(OriginRequest(url: nginx.url("/big.mp4")))
                for try await chunk in response.body {
                    try chunk.withUnsafeBytes { try file.write($0, at: offset) }
                    offset += Int64(chunk.count)
                }
            })
        let residentAfterCold = try Measure.peakResidentBytes()
        let cached = directory.appending("cached")
        let store = try openStore(cached)
        let loader = MediaLoader(store: store, origin: http)
        try await drain(loader.read(nginx.url("/big.mp4"), ByteRequest(offset: 0)))
        let file = try LocalFileSystem().openFile(at: cached + "/data/1.data")
        defer { file.close() }
        let chunk = MediaLoader.Configuration().chunkSize
        let (cachedLoader, cachedFile) = try await Measure.interleaved(
            runs: 5, before: { _ in },
            {
                try await drain(loader.read(nginx.url("/big.mp4"), ByteRequest(offset: 0)))
            },
            {
                var offset: Int64 = 0
                while offset < length {
                    let count = try file.read(count: chunk, at: offset).count
                    guard count > 0 else { throw BenchmarkError("the cached data file ends at \(offset)") }
                    offset += Int64(count)
                }
            })
        try store.close()

        let megabytes = Double(length) / 1_048_576
        func rate(_ duration: Duration) -> String { String(format: "%.0f MiB/s", megabytes / duration.timeInterval) }
        Measure.header(
            "Loader throughput (\(length >> 20) MiB, nginx on loopback as the origin)", ours: "MediaLoader",
            reference: "direct", ratioMeaning: "loader / direct, higher is better")
        Measure.row(
            "fully cached read vs pread of the data file", ours: rate(cachedLoader), reference: rate(cachedFile),
            ratio: cachedFile.timeInterval / cachedLoader.timeInterval)
        Measure.row(
            "cold read vs HTTPOrigin GET of the same URL", ours: rate(coldLoader), reference: rate(coldDirect),
            ratio: coldDirect.timeInterval / coldLoader.timeInterval)
        Measure.row(
            "cold read vs that GET writing its body to a file", ours: rate(coldLoader),
            reference: rate(coldWritingDirect), ratio: coldWritingDirect.timeInterval / coldLoader.timeInterval)

        Measure.header(
            "Memory while streaming \(length >> 20) MiB cold through the loader, five times", ours: "peak RSS growth",
            reference: "bytes streamed", ratioMeaning: "growth / streamed, lower is better")
        let growth = residentAfterCold - residentBefore
        Measure.row(
            "peak resident memory growth", ours: "\(growth >> 20) MiB", reference: "\(length >> 20) MiB",
            ratio: Double(growth) / Double(length))

        let origin = try await TestOrigin.start()
        try await distantStart(origin: origin, http: http, directory: directory)
        try await seekPattern(origin: origin, http: http, directory: directory)
        try await http.shutdown()
        try await origin.stop()
    }

    /// The first 16 MiB of a cold file from an unthrottled origin 40 ms away (each answer
    /// waits 40 ms), read open-ended through a fresh store, against one GET of the same bytes,
    /// which pays the round trip once: how fast the paced requests reach the link's speed.
    private func distantStart(origin: TestOrigin, http: HTTPOrigin, directory: TemporaryDirectory) async throws {
        let first: Int64 = 16 << 20
        origin.serve("/distant.mp4", content: .pattern(length: 64 << 20, seed: 6))
        origin.setMisbehavior(.init(firstByteDelay: .milliseconds(40)), for: "/distant.mp4")
        let url = origin.url("/distant.mp4")
        let path = directory.appending("distant")
        let (ours, reference) = try await Measure.interleaved(
            runs: 5,
            before: { _ in
                try? FileManager.default.removeItem(atPath: path)
            },
            {
                let store = try openStore(path)
                let loader = MediaLoader(store: store, origin: http)
                var received: Int64 = 0
                for try await chunk in loader.read(url, ByteRequest(offset: 0)) {
                    received += Int64(chunk.bytes.count)
                    if received >= first { break }
                }
                try store.close()
            },
            {
                let response = try await http.fetch(OriginRequest(url: url, bytes: ByteRequest(offset: 0, end: first)))
                for try await _ in response.body {}
            })
        Measure.header(
            "Start of a cold read from an origin 40 ms away (unthrottled loopback, median of 5)",
            ours: "MediaLoader, open-ended read", reference: "one GET of the same bytes",
            ratioMeaning: "reference time / ours, higher is better")
        Measure.row(
            "first 16 MiB", ours: String(format: "%.0f ms", ours.timeInterval * 1000),
            reference: String(format: "%.0f ms", reference.timeInterval * 1000),
            ratio: reference.timeInterval / ours.timeInterval)
    }

    /// An AVPlayer-like session on a 64 MiB file over a 4 MB/s origin: the moov at the end,
    /// "read to the end" cancelled, seeks forward and back, twice.
    private func seekPattern(origin: TestOrigin, http: HTTPOrigin, directory: TemporaryDirectory) async throws {
        let length: Int64 = 64 << 20
        origin.serve("/seek.mp4", content: .pattern(length: length, seed: 5))
        origin.setMisbehavior(.init(bytesPerSecond: 4_000_000), for: "/seek.mp4")
        let store = try openStore(directory.appending("seek"))
        defer { try? store.close() }
        let loader = MediaLoader(store: store, origin: http)
        let url = origin.url("/seek.mp4")
        var unique = ByteRangeSet()
        let steps: [(offset: Int64, length: Int64?, stopAfter: Int64?)] = [
            (0, 2, nil), (length - 2_000_000, nil, nil), (0, nil, 8_000_000),
            (30_000_000, 6_000_000, nil), (12_000_000, nil, 4_000_000), (50_000_000, 3_000_000, nil),
        ]
        for pass in 1...2 {
            for step in steps {
                var received: Int64 = 0
                for try await chunk in loader.read(url, ByteRequest(offset: step.offset, length: step.length)) {
                    received += Int64(chunk.bytes.count)
                    if let stop = step.stopAfter, received >= stop { break }
                }
                unique.insert(ByteRange(offset: step.offset, length: received))
            }
            if pass == 1 {
                let sent = origin.bytesSent(for: "/seek.mp4")
                Measure.header(
                    "Seek-heavy playback (64 MiB file, 4 MB/s origin, default configuration)",
                    ours: "origin bytes", reference: "unique bytes delivered",
                    ratioMeaning: "origin / unique, 1.00 is ideal")
                Measure.row(
                    "first pass", ours: "\(sent)", reference: "\(unique.coveredLength)",
                    ratio: Double(sent) / Double(unique.coveredLength))
            }
        }
        let secondPass = origin.bytesSent(for: "/seek.mp4")
        Measure.row(
            "after a second identical pass", ours: "\(secondPass)", reference: "\(unique.coveredLength)",
            ratio: Double(secondPass) / Double(unique.coveredLength))
    }

    /// Writes the pattern file in 16 MiB pieces, so the benchmark's own memory stays small.
    private func writePatternFile(at path: String) throws {
        let file = try LocalFileSystem().openFile(at: path)
        defer { file.close() }
        let piece = 16 << 20
        for offset in stride(from: Int64(0), to: length, by: piece) {
            let bytes = TestPattern.data(offset: offset, length: piece, seed: 3)
            try bytes.withUnsafeBytes { try file.write($0, at: offset) }
        }
    }

    private func drain(_ stream: ByteStream) async throws {
        for try await _ in stream {}
    }

    private func openStore(_ path: String) throws -> MediaStore {
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        return try MediaStore.open(at: path, configuration: configuration)
    }
}

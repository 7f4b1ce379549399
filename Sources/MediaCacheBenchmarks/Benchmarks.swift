import Foundation

/// `swift run -c release mediacache-benchmarks [store|eviction|ranges|loader|origin|proxy|encryption|preload|hls|download]...`: each benchmark measures
/// MediaCache against a reference doing the same work in the same run and prints
/// Markdown rows with the ratio.
@main
enum Benchmarks {
    static func main() async throws {
        let selected = Set(CommandLine.arguments.dropFirst())
        let all = ["store", "eviction", "ranges", "loader", "origin", "proxy", "encryption", "preload", "hls", "download"]
        for name in all where selected.isEmpty || selected.contains(name) {
            switch name {
            case "store": try await StoreBenchmark().run()
            case "eviction": try EvictionCheckBenchmark().run()
            case "ranges": RangeSetBenchmark().run()
            case "loader": try await LoaderBenchmark().run()
            case "origin": try await OriginCostBenchmark().run()
            case "proxy": try ProxyBenchmark().run()
            case "encryption": try EncryptionBenchmark().run()
            case "hls": try await HLSBenchmark().run()
            case "download": try await DownloadBenchmark().run()
            default: try await PreloadBenchmark().run()
            }
        }
    }
}

/// Timing shared by the benchmarks: the median of several runs of a closure.
enum Measure {
    static func median(runs: Int = 5, _ body: () throws -> Void) rethrows -> Duration {
        var samples: [Duration] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            samples.append(ContinuousClock.now - start)
        }
        return median(of: samples)
    }

    /// The median of `values` (the upper one of an even count); `values` is not empty.
    static func median<Value: Comparable>(of values: [Value]) -> Value {
        values.sorted()[values.count / 2]
    }

    /// The medians of `first` and `second`, run alternately; `before(0)` runs untimed before
    /// each run of `first`, `before(1)` before each run of `second`.
    static func interleaved(
        runs: Int = 5, before: (Int) throws -> Void,
        _ first: () async throws -> Void, _ second: () async throws -> Void
    ) async throws -> (Duration, Duration) {
        var firstSamples: [Duration] = []
        var secondSamples: [Duration] = []
        for _ in 0..<runs {
            try before(0)
            let firstStart = ContinuousClock.now
            try await first()
            firstSamples.append(ContinuousClock.now - firstStart)
            try before(1)
            let secondStart = ContinuousClock.now
            try await second()
            secondSamples.append(ContinuousClock.now - secondStart)
        }
        return (median(of: firstSamples), median(of: secondSamples))
    }

    /// The process's peak resident memory so far (`VmHWM`), in bytes.
    static func peakResidentBytes() throws -> Int64 {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) })
        else {
            throw BenchmarkError("no VmHWM in /proc/self/status")
        }
        return kilobytes * 1024
    }

    /// One Markdown row: what, MediaCache's figure, the reference's figure, and the ratio.
    static func row(_ name: String, ours: String, reference: String, ratio: Double) {
        print("| \(name) | \(ours) | \(reference) | \(String(format: "%.2f", ratio)) |")
    }

    static func header(_ title: String, ours: String, reference: String, ratioMeaning: String) {
        print("\n### \(title)\n")
        print("| benchmark | \(ours) | \(reference) | ratio (\(ratioMeaning)) |")
        print("|---|---|---|---|")
    }
}

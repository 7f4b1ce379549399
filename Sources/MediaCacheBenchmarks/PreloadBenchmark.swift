import Foundation
import MediaCacheTesting

/// Time to the first decoded video frame through `mediacache serve` from an origin throttled to
/// 4 Mbit/s with 40 ms before each response, cold and after preloading 3 seconds: what a feed's
/// next item costs the viewer with and without preloading.
struct PreloadBenchmark {
    static let bytesPerSecond = 500_000
    static let latency = Duration.milliseconds(40)
    static let runs = 5

    func run() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let proxy = try ProxyBenchmark.startProxy(cacheDirectory: directory.appending("cache"))
        defer { proxy.stop() }
        Measure.header(
            "Time to the first decoded frame through the proxy (20 s of 640×360 H.264 at 2 Mbit/s + AAC; origin at "
                + "4 Mbit/s with 40 ms latency; `ffmpeg -frames:v 1`, median of \(Self.runs))",
            ours: "preloaded 3 s", reference: "cold", ratioMeaning: "preloaded / cold, lower is better")
        for faststart in [false, true] {
            let media = Self.media(faststart: faststart)
            let bytes = try await media.make(in: directory.path)
            origin.serve("/" + media.name, content: .data(bytes, mimeType: media.mimeType))
            origin.setMisbehavior(.init(bytesPerSecond: Self.bytesPerSecond, firstByteDelay: Self.latency), for: "/" + media.name)
            let url = "\(proxy.root)http/127.0.0.1:\(origin.port)/\(media.name)"
            var cold: [Double] = []
            var preloaded: [Double] = []
            var local: [Double] = []
            for _ in 0..<Self.runs {
                try clear(proxy)
                cold.append(try timeToFirstFrame(url))
                try clear(proxy)
                try preload(proxy, origin.url("/" + media.name).absoluteString, seconds: 3)
                preloaded.append(try timeToFirstFrame(url))
                local.append(try timeToFirstFrame(directory.appending(media.name)))
            }
            let (ours, reference) = (Measure.median(of: preloaded), Measure.median(of: cold))
            Measure.row(
                "\(faststart ? "moov first" : "moov last") (ffmpeg on the local file: "
                    + String(format: "%.0f ms)", Measure.median(of: local) * 1000),
                ours: String(format: "%.0f ms", ours * 1000), reference: String(format: "%.0f ms", reference * 1000),
                ratio: ours / reference)
        }
        proxy.stop()
        try await origin.stop()
    }

    static func media(faststart: Bool) -> TestMedia {
        TestMedia(
            name: faststart ? "faststart.mp4" : "moov-last.mp4", mimeType: "video/mp4",
            arguments: [
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=20", "-f", "lavfi", "-i", "sine=frequency=440:duration=20",
                "-c:v", "libx264", "-preset", "veryfast", "-b:v", "2M", "-pix_fmt", "yuv420p", "-g", "60", "-c:a", "aac", "-shortest",
            ] + (faststart ? ["-movflags", "+faststart"] : []))
    }

    private func timeToFirstFrame(_ input: String) throws -> Double {
        let start = ContinuousClock.now
        let run = try Tool.run("ffmpeg", ["-v", "error", "-i", input, "-frames:v", "1", "-f", "null", "-"])
        let elapsed = ContinuousClock.now - start
        guard run.status == 0 else { throw BenchmarkError("ffmpeg \(input): \(run.errorOutput)") }
        return elapsed.timeInterval
    }

    private func clear(_ proxy: ServeProcess) throws {
        _ = try Tool.run("curl", ["-sf", "-X", "DELETE", proxy.root + "api/entries?includingPinned=true"])
    }

    /// Preloads through the API and waits until the job has ended.
    private func preload(_ proxy: ServeProcess, _ url: String, seconds: Int) throws {
        let body = #"{"urls": ["\#(url)"], "seconds": \#(seconds)}"#
        _ = try Tool.run("curl", ["-sf", "-X", "POST", "-H", "Content-Type: application/json", "-d", body, proxy.root + "api/preload"])
        while true {
            let jobs = try Tool.run("curl", ["-sf", proxy.root + "api/preload"]).output
            let states = (try JSONSerialization.jsonObject(with: Data(jobs.utf8)) as? [[String: Any]] ?? []).compactMap {
                $0["state"] as? String
            }
            if states.allSatisfy({ ["finished", "failed", "cancelled"].contains($0) }) {
                guard !states.contains("failed") else { throw BenchmarkError("preload failed: \(jobs)") }
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

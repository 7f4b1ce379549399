import Foundation

/// One `wrk` run against a server, with the CPU time the server spent meanwhile.
struct WrkRun {
    /// Body and header bytes delivered per second, in MiB.
    var mebibytesPerSecond: Double
    /// The server's CPU time (user and system) per GiB delivered, in seconds.
    var cpuSecondsPerGiB: Double
    /// The 99th percentile of the latencies (request sent to response read) of the responses
    /// the run completed, in milliseconds. wrk leaves out those slower than its timeout, so the
    /// run's timeout is a minute.
    var p99Milliseconds: Double

    /// Runs `wrk` on `url` with `connections` connections for `seconds`, measuring the CPU
    /// time of the server process `pid` from `/proc/PID/stat` around it.
    static func run(_ url: String, connections: Int, seconds: Int, serverPID: pid_t) throws -> WrkRun {
        let before = try cpuSeconds(of: serverPID)
        let threads = min(2, connections)
        let run = try Tool.run("wrk", ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency", "--timeout", "60s", url])
        let used = try cpuSeconds(of: serverPID) - before
        guard let read = run.output.firstMatch(of: /requests in ([\d.]+)s, ([\d.]+)([KMGT]?B) read/),
            let elapsed = Double(read.1), let amount = Double(read.2)
        else {
            throw BenchmarkError("no byte count in wrk's output: \(run.output)")
        }
        guard !run.output.contains("Non-2xx") else { throw BenchmarkError("wrk got error answers from \(url): \(run.output)") }
        let scale: [Substring: Double] = ["B": 1.0 / 1_048_576, "KB": 1.0 / 1024, "MB": 1, "GB": 1024, "TB": 1_048_576]
        let mebibytes = amount * (scale[read.3] ?? 1)
        guard let p99 = run.output.firstMatch(of: /99%\s+([\d.]+)(us|ms|s|m)\b/), let value = Double(p99.1) else {
            throw BenchmarkError("no latency distribution in wrk's output: \(run.output)")
        }
        let milliseconds: [Substring: Double] = ["us": 0.001, "ms": 1, "s": 1000, "m": 60000]
        return WrkRun(
            mebibytesPerSecond: mebibytes / elapsed, cpuSecondsPerGiB: used / (mebibytes / 1024),
            p99Milliseconds: value * (milliseconds[p99.2] ?? 1))
    }

    /// The run of median rate among `runs`.
    static func median(_ runs: [WrkRun]) -> WrkRun {
        runs.sorted { $0.mebibytesPerSecond < $1.mebibytesPerSecond }[runs.count / 2]
    }

    /// Two table rows, rate and server CPU per GiB, for `ours` against `reference`.
    static func rows(_ label: String, ours: WrkRun, reference: WrkRun) {
        rateRow("\(label): transfer rate", ours: ours, reference: reference)
        Measure.row(
            "\(label): server CPU per GiB", ours: String(format: "%.2f s", ours.cpuSecondsPerGiB),
            reference: String(format: "%.2f s", reference.cpuSecondsPerGiB),
            ratio: ours.cpuSecondsPerGiB / reference.cpuSecondsPerGiB)
    }

    /// A table row of the 99th-percentile latency, the median of each side's runs.
    static func latencyRow(_ label: String, ours: [WrkRun], reference: [WrkRun]) {
        let mine = Measure.median(of: ours.map(\.p99Milliseconds))
        let theirs = Measure.median(of: reference.map(\.p99Milliseconds))
        Measure.row(label, ours: String(format: "%.0f ms", mine), reference: String(format: "%.0f ms", theirs), ratio: mine / theirs)
    }

    /// A table row of the transfer rate alone, for `ours` against `reference`.
    static func rateRow(_ label: String, ours: WrkRun, reference: WrkRun) {
        Measure.row(
            label, ours: String(format: "%.0f MiB/s", ours.mebibytesPerSecond),
            reference: String(format: "%.0f MiB/s", reference.mebibytesPerSecond),
            ratio: ours.mebibytesPerSecond / reference.mebibytesPerSecond)
    }

    /// The user and system CPU time process `pid` has used, all its threads together.
    static func cpuSeconds(of pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces: utime
        // and stime are the 14th and 15th fields of the line, the 12th and 13th after it.
        guard let close = stat.lastIndex(of: ")") else { throw BenchmarkError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchmarkError("unreadable /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

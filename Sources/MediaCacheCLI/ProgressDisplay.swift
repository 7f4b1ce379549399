import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer

/// Shows preload jobs as they progress, on standard error: bars redrawn in place on a
/// terminal, otherwise a plain line whenever a job changes state or passes another tenth of
/// its target.
final class ProgressDisplay {
    private let isTerminal: Bool
    private var linesDrawn = 0
    private var lastReported: [ResourceKey: String] = [:]

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func show(_ jobs: [PreloadJob]) {
        if isTerminal {
            var text = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)A" : ""
            for job in jobs { text += "\u{1B}[2K" + Self.bar(job) + "\n" }
            linesDrawn = jobs.count
            Output.progress(text)
            return
        }
        for job in jobs {
            let tenth = job.fractionDone.map { Int(min($0, 1) * 10) } ?? 0
            let mark = "\(job.state.rawValue) \(tenth)"
            guard lastReported[job.key] != mark else { continue }
            lastReported[job.key] = mark
            Output.progress(Self.line(job) + "\n")
        }
    }

    /// `clip.mp4: running 40% (1.2 MiB of 2.9 MiB, mp4 time index)`.
    static func line(_ job: PreloadJob) -> String {
        var text = "\(job.url.absoluteString): \(job.state.rawValue)"
        if let fraction = job.fractionDone { text += String(format: " %.0f%%", min(fraction, 1) * 100) }
        var details = [ByteCountText.progress(job.bytesDone, of: job.bytesTarget)]
        if let method = job.method { details.append(method) }
        text += " (" + details.joined(separator: ", ") + ")"
        if let error = job.error { text += ": " + error }
        return text
    }

    /// `[##########----------]  50%  1.2 MiB of 2.4 MiB  clip.mp4  running`.
    static func bar(_ job: PreloadJob) -> String {
        let fraction = min(job.fractionDone ?? 0, 1)
        let filled = Int(fraction * 20)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "] "
            + String(format: "%3.0f%%", fraction * 100)
            + "  \(ByteCountText.progress(job.bytesDone, of: job.bytesTarget))  \(job.url.lastPathComponent)  \(job.state.rawValue)"
            + (job.state == .failed ? ": " + (job.error ?? "") : "")
    }
}

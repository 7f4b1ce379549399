import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheServer

/// One line of download progress: bytes of expected (marked `~` while estimated), seconds
/// loaded, rate and time left, on standard error; redrawn in place on a terminal, a line per
/// second otherwise.
final class DownloadProgress {
    private let isTerminal: Bool
    /// The cache directory, whose free space the estimate line names.
    private let directory: String
    private var started: (time: Date, bytes: Int64)?
    private var lastLine = Date.distantPast
    private var printedEstimate = false

    init(isTerminal: Bool, directory: String) {
        self.isTerminal = isTerminal
        self.directory = directory
    }

    /// Shows `report` once it is planned: first the estimate, then progress.
    func show(_ report: DownloadReport) {
        guard report.expectedBytes != nil || report.segmentCount > 0 else { return }
        let now = Date()
        if !printedEstimate, let expected = report.expectedBytes {
            printedEstimate = true
            let free = DiskSpace.available(at: directory).map(Output.bytes)
            Output.progress(
                "\(report.title): \(report.expectedIsEstimate ? "about " : "")\(Output.bytes(expected)) to store"
                    + (free.map { ", \($0) free" } ?? "") + "\n")
        }
        let start = started ?? (now, report.bytesOnDisk)
        started = start
        let elapsed = now.timeIntervalSince(start.time)
        let rate = elapsed > 0.5 ? Double(report.bytesOnDisk - start.bytes) / elapsed : 0
        var parts = [
            Output.bytes(report.bytesOnDisk)
                + (report.expectedBytes.map { " of \(report.expectedIsEstimate ? "~" : "")\(Output.bytes($0))" } ?? "")
        ]
        if report.durationSeconds > 0 {
            parts.append(String(format: "%.0f of %.0f s", report.loadedSeconds, report.durationSeconds))
        }
        if report.segmentCount > 1 { parts.append("\(report.segmentsDone)/\(report.segmentCount) segments") }
        if rate > 0 {
            parts.append("\(Output.bytes(Int64(rate)))/s")
            if let expected = report.expectedBytes, expected > report.bytesOnDisk {
                parts.append(String(format: "%.0f s left", Double(expected - report.bytesOnDisk) / rate))
            }
        }
        let line = "\(report.state): " + parts.joined(separator: ", ")
        if isTerminal {
            Output.progress("\r\u{1B}[K" + line)
        } else if now.timeIntervalSince(lastLine) >= 1 {
            lastLine = now
            Output.progress(line + "\n")
        }
    }

    func end(_ message: String) {
        Output.progress((isTerminal ? "\n" : "") + message + "\n")
    }
}

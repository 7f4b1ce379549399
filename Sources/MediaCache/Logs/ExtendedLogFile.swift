import Foundation

/// A log file in the W3C Extended Log File Format: `#` directives naming the fields, then one
/// line of space-separated values per event.
///
/// ```text
/// #Version: 1.0
/// #Software: MediaCache
/// #Start-Date: 2026-11-22 10:00:00
/// #Fields: date time c-ip cs-method cs-uri sc-status sc-bytes x-cache-bytes x-origin-bytes time-taken
/// 2026-11-22 10:00:01 127.0.0.1 GET /https/cdn.example/a.mp4 206 1048576 1048576 0 0.004
/// ```
///
/// Values are written as ``ExtendedLogFormat`` says. The directives are written again each time
/// the file is opened, as the format allows, so that a reader knows the fields of every run.
public final class ExtendedLogFile: Sendable {
    /// The file's path.
    public let path: String
    /// The field names, in order.
    public let fields: [String]
    private let state: Locked<State>

    /// The open file, and the stamp of the last entry: entries of the same second share it.
    private struct State {
        let handle: FileHandle
        var second = Int.min
        var stamp = ""

        /// The `date` and `time` fields of an entry at `now`.
        mutating func stamp(at now: Date) -> String {
            let second = Int(now.timeIntervalSince1970.rounded(.down))
            if second != self.second {
                self.second = second
                stamp = ExtendedLogFormat.stamp(now)
            }
            return stamp
        }
    }

    /// Opens `path` for appending, creating it readable by its owner only, and writes the
    /// directives.
    ///
    /// - Throws: the file system's error when the file cannot be opened or written.
    public init(path: String, fields: [String], now: Date = Date()) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(ExtendedLogFormat.directives(fields: fields, date: now).utf8))
        self.path = path
        self.fields = fields
        self.state = Locked(State(handle: handle))
    }

    /// Appends one entry: `date` and `time` from `now`, then `values`, one per remaining field.
    /// A failed write is dropped: logging never fails a response.
    public func append(_ values: [String?], at now: Date = Date()) {
        state.withLock { state in
            var line = ExtendedLogFormat.line(values, stamp: state.stamp(at: now))
            line.withUTF8 { Self.appendAll($0, to: state.handle.fileDescriptor) }
        }
    }

    /// Writes every byte of `bytes` with `write(2)`; stops at a failure. `FileHandle.write`
    /// copied each line into `Data` first, which cost a cache hit more than the line's
    /// formatting did.
    private static func appendAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        guard let start = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, start + written, bytes.count - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return }
            written += result
        }
    }

    /// Closes the file.
    public func close() {
        state.withLock { try? $0.handle.close() }
    }
}

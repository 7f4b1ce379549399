import Foundation
import MediaCache

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
/// Values with spaces or quotes are quoted, with inner quotes doubled; a missing value is `-`.
/// The directives are written again each time the file is opened, as the format allows, so
/// that a reader knows the fields of every run. Times are UTC.
public final class ExtendedLogFile: Sendable {
    /// The file's path.
    public let path: String
    /// The field names, in order.
    public let fields: [String]
    private let handle: Locked<FileHandle>

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
        let (date, time) = Self.dateAndTime(now)
        let directives = "#Version: 1.0\n#Software: MediaCache\n#Start-Date: \(date) \(time)\n#Fields: \(fields.joined(separator: " "))\n"
        try handle.write(contentsOf: Data(directives.utf8))
        self.path = path
        self.fields = fields
        self.handle = Locked(handle)
    }

    /// Appends one entry: `date` and `time` from `now`, then `values`, one per remaining field.
    /// A failed write is dropped: logging never fails a response.
    public func append(_ values: [String?], at now: Date = Date()) {
        let (date, time) = Self.dateAndTime(now)
        let line = ([date, time] + values.map(Self.field)).joined(separator: " ") + "\n"
        handle.withLock { try? $0.write(contentsOf: Data(line.utf8)) }
    }

    /// Closes the file.
    public func close() {
        handle.withLock { try? $0.close() }
    }

    /// A value as the format writes it.
    static func field(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "-" }
        let plain = value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0.value != 0x7F }
        if plain { return value }
        let cleaned = value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : String($0) }.joined()
        return "\"" + cleaned.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func dateAndTime(_ date: Date) -> (String, String) {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let time = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return (day, time)
    }
}

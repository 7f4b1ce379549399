import Foundation
import MediaCacheAPI
import MediaCacheServer

/// Formatting shared by the commands.
enum Output {
    /// Writes a line of a command's result to standard output at once, unbuffered, so that a
    /// process reading a pipe sees it while the command keeps running.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes progress to standard error, which leaves standard output to the result (the JSON
    /// of `--json`, an id) for a pipe to read alone.
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes a warning or an error line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether progress goes to a terminal, where it is redrawn in place.
    static var progressIsTerminal: Bool {
        isatty(STDERR_FILENO) != 0
    }

    /// `value` in the API's JSON form, so that `--json` prints what the API answers.
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try APIJSON.encoder().encode(value), as: UTF8.self)
    }

    /// `1.5 MiB`, `300 B`.
    static func bytes(_ count: Int64) -> String {
        ByteCountText.string(count)
    }

    static func date(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).dateTimeSeparator(.space))
    }

    /// Left-aligned columns separated by two spaces.
    static func table(header: [String]?, rows: [[String]]) -> String {
        let all = (header.map { [$0] } ?? []) + rows
        let widths = (0..<(all.first?.count ?? 0)).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            zip(row, widths).enumerated().map { index, cell in
                index == row.count - 1 ? cell.0 : cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

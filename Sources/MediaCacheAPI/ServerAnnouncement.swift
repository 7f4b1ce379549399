import Foundation
import MediaCache

/// The note a running server leaves in its cache directory (`server.json`, readable by its
/// user only) so that other processes, such as the `mediacache` CLI, use its API instead of
/// opening the directory it owns.
public struct ServerAnnouncement: Hashable, Sendable, Codable {
    /// The server's process.
    public var pid: Int32
    /// The server's root URL, such as `http://127.0.0.1:8080/`.
    public var url: URL
    /// The server's token, when it needs one.
    public var token: String?

    /// Creates an announcement.
    public init(pid: Int32, url: URL, token: String?) {
        self.pid = pid
        self.url = url
        self.token = token
    }

    /// The announcement's path in `directory`.
    public static func path(in directory: String) -> String { directory + "/server.json" }

    /// Writes the announcement into `directory`, replacing any earlier one atomically. The file
    /// holds the token, so it is created readable by its owner only (never widened and then
    /// narrowed), and the temporary file is removed when any step fails.
    ///
    /// - Throws: `io(key:underlying:)` naming the step and the path.
    public func write(in directory: String) throws {
        let data = try JSONEncoder().encode(self)
        let path = Self.path(in: directory)
        let temporary = path + ".tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("open", temporary) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let closed = close(descriptor)
        guard written == data.count, closed == 0 else {
            let error = Self.failure("write", temporary)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = Self.failure("rename", path)
            unlink(temporary)
            throw error
        }
    }

    private static func failure(_ operation: String, _ path: String) -> MediaStoreError {
        .io(key: nil, underlying: IOError(operation: operation, path: path, code: errno == 0 ? EIO : errno))
    }

    /// The announcement in `directory` when its process still runs, else `nil`.
    public static func read(in directory: String) -> ServerAnnouncement? {
        guard let data = FileManager.default.contents(atPath: path(in: directory)),
            let announcement = try? JSONDecoder().decode(ServerAnnouncement.self, from: data),
            kill(announcement.pid, 0) == 0 || errno == EPERM
        else { return nil }
        return announcement
    }

    /// Removes the announcement from `directory`.
    public static func remove(in directory: String) {
        try? FileManager.default.removeItem(atPath: path(in: directory))
    }
}

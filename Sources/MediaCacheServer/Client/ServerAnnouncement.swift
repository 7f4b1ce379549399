import Foundation

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

    /// Writes the announcement into `directory`, replacing any earlier one atomically.
    public func write(in directory: String) throws {
        let data = try JSONEncoder().encode(self)
        let path = Self.path(in: directory)
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path,
                                                          NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
    }

    /// The announcement in `directory` when its process still runs, else `nil`.
    public static func read(in directory: String) -> ServerAnnouncement? {
        guard let data = FileManager.default.contents(atPath: path(in: directory)),
              let announcement = try? JSONDecoder().decode(ServerAnnouncement.self, from: data),
              kill(announcement.pid, 0) == 0 || errno == EPERM else { return nil }
        return announcement
    }

    /// Removes the announcement from `directory`.
    public static func remove(in directory: String) {
        try? FileManager.default.removeItem(atPath: path(in: directory))
    }
}

import Foundation
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// `server.json` holds the token: it is born readable by its owner only, and a failed write
/// leaves no temporary copy behind.
@Suite(.timeLimit(.minutes(2))) struct ServerAnnouncementTests {
    let announcement = ServerAnnouncement(
        pid: getpid(), url: URL(string: "http://127.0.0.1:8080/t/t0ken-for-tests/")!,
        token: "t0ken-for-tests")

    @Test func theAnnouncementIsWrittenForItsOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try announcement.write(in: directory.path)
        let path = ServerAnnouncement.path(in: directory.path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(ServerAnnouncement.read(in: directory.path) == announcement)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aFailedWriteLeavesNoTemporaryFileWithTheToken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = ServerAnnouncement.path(in: directory.path)
        // A non-empty directory where the file should go: the final rename fails.
        try FileManager.default.createDirectory(atPath: path + "/blocker", withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try announcement.write(in: directory.path) }
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(throws: (any Error).self) { try announcement.write(in: directory.appending("missing")) }
        #expect(!FileManager.default.fileExists(atPath: directory.appending("missing/server.json.tmp")))
    }
}

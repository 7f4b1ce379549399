import Foundation
import MediaCacheTesting
import Testing
@testable import MediaCache

/// The journal of writes awaiting a commit: what it hands back after a kill, and when it
/// refuses to.
@Suite(.timeLimit(.minutes(2))) struct SpanJournalTests {
    private static func entry(_ id: Int64, _ lower: Int64, _ upper: Int64) -> SpanJournal.Entry {
        SpanJournal.Entry(id: id, generation: Generation(2), range: ByteRange(lower, upper))
    }

    /// The local file system maps the journal; the faulty one (with no faults) cannot, so its
    /// records are written with `pwrite`.
    static let fileSystems: [any FileSystem] = [LocalFileSystem(), FaultyFileSystem()]

    private static func journal(
        in directory: TemporaryDirectory, boot: String = "boot-a",
        on fileSystem: any FileSystem = LocalFileSystem()
    ) -> SpanJournal {
        SpanJournal(directory: directory.path, bootSession: boot, fileSystem: fileSystem, logger: .init(label: "test"))
    }

    @Test(arguments: fileSystems)
    func recordsComeBackInTheSameBootSessionOnly(on fileSystem: any FileSystem) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let journal = Self.journal(in: directory, on: fileSystem)
        try journal.start()
        journal.append(Self.entry(7, 0, 100))
        journal.append(Self.entry(9, 4096, 65_536))
        journal.close()

        #expect(Self.journal(in: directory).leftEntries() == [Self.entry(7, 0, 100), Self.entry(9, 4096, 65_536)])
        #expect(Self.journal(in: directory, boot: "boot-b").leftEntries().isEmpty, "after a reboot unflushed bytes may be gone")
    }

    @Test(arguments: fileSystems)
    func aCommitThatRecordedEverythingForgetsWhatCameBeforeIt(on fileSystem: any FileSystem) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let journal = Self.journal(in: directory, on: fileSystem)
        try journal.start()
        journal.append(Self.entry(1, 0, 10))
        journal.commitStarting()
        journal.append(Self.entry(1, 10, 20))
        journal.commitSucceeded()
        #expect(Self.journal(in: directory).leftEntries() == [Self.entry(1, 10, 20)])

        journal.commitStarting()
        journal.append(Self.entry(1, 20, 30))
        // This commit failed: nothing is forgotten, and the next one may not rotate.
        journal.commitStarting()
        journal.append(Self.entry(1, 30, 40))
        #expect(Set(Self.journal(in: directory).leftEntries()) == [Self.entry(1, 10, 20), Self.entry(1, 20, 30), Self.entry(1, 30, 40)])
        journal.commitSucceeded()
        #expect(Set(Self.journal(in: directory).leftEntries()) == [Self.entry(1, 20, 30), Self.entry(1, 30, 40)])
        journal.close()
    }

    @Test func readingStopsAtADamagedRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let journal = Self.journal(in: directory)
        try journal.start()
        for index in 0..<3 { journal.append(Self.entry(3, Int64(index) * 10, Int64(index) * 10 + 5)) }
        journal.close()
        let path = directory.path + "/written-0.journal"
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        data[48 + SpanJournal.recordLength + 17] ^= 0x40
        try data.write(to: URL(fileURLWithPath: path))

        #expect(Self.journal(in: directory).leftEntries() == [Self.entry(3, 0, 5)])
    }
}

import Foundation
import Testing
@testable import MediaCache

/// The announcement of a miss's record, without a loader, a store or an origin.
@Suite(.timeLimit(.minutes(1))) struct MissAnnouncementTests {
    func record(length: Int64, etag: String = "\"a\"") -> ResourceRecord {
        ResourceRecord(
            key: ResourceKey("k"), url: "https://cdn.example/v.mp4",
            contentInfo: ContentInfo(totalLength: length, etag: etag), generation: .initial, isPinned: false,
            available: ByteRangeSet(), validatedAt: nil)
    }

    @Test func oneAnnouncementAtATimeUntilItsFetchCreatesTheResource() {
        var announcement = MissAnnouncement()
        let first = announcement.announce(record(length: 100), by: 1)
        let second = announcement.announce(record(length: 100), by: 2)
        #expect(first)
        #expect(!second, "another fetch records its answer at once")
        #expect(announcement.record?.contentInfo.totalLength == 100)
        #expect(announcement.isUnderWay(by: 1) && !announcement.isUnderWay(by: 2))
        let byAnother = announcement.created(.initial, by: 2)
        #expect(byAnother == nil && announcement.record != nil, "not the announcing fetch")
        let byItsFetch = announcement.created(.initial, by: 1)
        #expect(byItsFetch == nil, "created as announced: nothing moves")
        #expect(announcement.record == nil && !announcement.isUnderWay(by: 1))
    }

    @Test func aResourceCreatedMeanwhileUnderAnotherGenerationMovesTheReaders() {
        var announcement = MissAnnouncement()
        _ = announcement.announce(record(length: 100), by: 1)
        let moved = announcement.created(Generation(2), by: 1)
        #expect(moved == Generation(2))
        #expect(announcement.record == nil)
    }

    @Test func anotherVersionRecordedLaterWinsOverTheAnnouncement() {
        var announcement = MissAnnouncement()
        _ = announcement.announce(record(length: 100), by: 1)
        let same = announcement.recorded(ContentInfo(totalLength: 100, etag: "\"a\""))
        #expect(same == nil, "the same version")
        #expect(announcement.isUnderWay(by: 1))
        let over = announcement.recorded(ContentInfo(totalLength: 150, etag: "\"b\""))
        #expect(over?.fetch == 1 && over?.record.contentInfo.totalLength == 100)
        #expect(announcement.record == nil && !announcement.isUnderWay(by: 1), "its first chunk is kept no more")
    }

    @Test func aFetchThatFindsAnotherVersionStoredOrEndsEndsItsAnnouncement() {
        var announcement = MissAnnouncement()
        _ = announcement.announce(record(length: 100), by: 1)
        let byAnother = announcement.superseded(by: 2)
        let byItsFetch = announcement.superseded(by: 1)
        #expect(byAnother == nil)
        #expect(byItsFetch?.contentInfo.totalLength == 100)
        #expect(announcement.record == nil)
        _ = announcement.announce(record(length: 100), by: 3)
        announcement.ended(4)
        #expect(announcement.isUnderWay(by: 3))
        announcement.ended(3)
        #expect(announcement.record == nil)
    }
}

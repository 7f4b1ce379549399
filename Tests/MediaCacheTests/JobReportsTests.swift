import Foundation
import Testing
@testable import MediaCache

/// The reports of a job runner's jobs, without a runner.
@Suite(.timeLimit(.minutes(1))) struct JobReportsTests {
    @Test func reportsKeepTheOrderOfTheirFirstReportAndAreEachPublished() async {
        var reports = JobReports<String, String>(retention: .untilRemoved)
        let stream = reports.subscribe { _ in }
        reports.record("a queued", for: "a")
        reports.record("b queued", for: "b")
        reports.update("a") { $0 = "a running" }
        reports.update("c") { $0 = "never" }
        #expect(reports.all == ["a running", "b queued"])
        #expect(reports["c"] == nil)
        var published: [String] = []
        for await report in stream {
            published.append(report)
            if published.count == 3 { break }
        }
        #expect(published == ["a queued", "b queued", "a running"])
    }

    @Test func untilRemovedKeepsEveryEndedJob() {
        var reports = JobReports<String, String>(retention: .untilRemoved)
        for key in ["a", "b", "c"] {
            reports.record("\(key) done", for: key)
            reports.end(key)
        }
        #expect(reports.endedLatestFirst == ["c done", "b done", "a done"])
        reports.remove("b")
        #expect(reports.all == ["a done", "c done"] && reports.endedLatestFirst == ["c done", "a done"])
    }

    @Test func lastEndedKeepsOnlyTheLatestEndedJobsAndNeverARunningOne() {
        var reports = JobReports<String, String>(retention: .lastEnded(2))
        reports.record("running", for: "r")
        for key in ["a", "b", "c"] {
            reports.record("\(key) done", for: key)
            reports.end(key)
        }
        #expect(reports.endedLatestFirst == ["c done", "b done"])
        #expect(reports.all == ["running", "b done", "c done"])
        reports.record("b again", for: "b")
        #expect(reports.endedLatestFirst == ["c done"], "a job asked for again is under way")
        reports.end("b")
        #expect(reports.endedLatestFirst == ["b again", "c done"])
    }
}

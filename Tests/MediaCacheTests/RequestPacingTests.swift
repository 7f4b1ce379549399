import Testing
@testable import MediaCache

@Suite(.timeLimit(.minutes(2))) struct RequestPacingTests {
    let pacing = RequestPacing(initialLead: 100, maximumLead: 1_000, requestWindow: 800)

    func reader(_ position: Int64, end: Int64? = nil) -> RequestPacing.Reader {
        RequestPacing.Reader(position: position, end: end)
    }

    @Test func anOpenEndedFetchAsksForTheInitialLeadFirst() {
        let decision = pacing.decide(start: 0, requested: 0, inFlight: 0, readers: [reader(0)], limit: nil)
        #expect(decision == .request(upTo: 100))
    }

    @Test func aReaderThatTakesAllGetsTheLargestLeadOnceItTookItsFirstBytes() {
        let fresh = RequestPacing.Reader(position: 0, end: nil, takesAll: true)
        #expect(
            pacing.decide(start: 0, requested: 0, inFlight: 0, readers: [fresh], limit: nil) == .request(upTo: 100),
            "the first bytes come with the initial lead")
        let started = RequestPacing.Reader(position: 75, end: nil, takesAll: true)
        #expect(
            pacing.decide(start: 0, requested: 100, inFlight: 1, readers: [started], limit: nil) == .request(upTo: 900),
            "then the largest lead, within one request's window")
        let bounded = RequestPacing.Reader(position: 0, end: 50, takesAll: true)
        #expect(pacing.decide(start: 0, requested: 0, inFlight: 0, readers: [bounded], limit: nil) == .request(upTo: 50))
    }

    @Test func theLeadGrowsWithWhatReadersConsumedUpToTheMaximum() {
        #expect(pacing.lead(consumed: 0) == 100)
        #expect(pacing.lead(consumed: 8_000) == 500)
        #expect(pacing.lead(consumed: 100_000) == 1_000)
    }

    @Test func aLearnedLeadIsAFloorThatDoublesWithEachStallUpToTheMaximum() {
        var learning = pacing
        let stall = Duration.milliseconds(50)
        learning.requestAnswered(after: stall, from: 0, readers: [reader(0)])
        #expect(learning.learnedLead == 200)
        learning.requestAnswered(after: stall, from: 0, readers: [reader(0)])
        #expect(learning.lead(consumed: 0) == 400)
        #expect(learning.decide(start: 0, requested: 0, inFlight: 0, readers: [reader(0)], limit: nil) == .request(upTo: 400))
        for _ in 0..<3 { learning.requestAnswered(after: stall, from: 0, readers: [reader(0)]) }
        #expect(learning.learnedLead == 1_000, "never past the largest lead")
    }

    @Test func onlyASlowAnswerThatAnOpenEndedReaderWaitedForTeachesALead() {
        var learning = pacing
        learning.requestAnswered(after: .milliseconds(5), from: 0, readers: [reader(0)])
        #expect(learning.learnedLead == 0, "a fast answer")
        learning.requestAnswered(after: .milliseconds(50), from: 500, readers: [reader(0)])
        #expect(learning.learnedLead == 0, "the reader was still reading bytes before the answer's")
        learning.requestAnswered(after: .milliseconds(50), from: 0, readers: [reader(0, end: 300)])
        #expect(learning.learnedLead == 0, "a bounded reader asks for exactly its bytes")
        learning.requestAnswered(after: .milliseconds(10), from: 0, readers: [reader(0)])
        #expect(learning.learnedLead == 200)
    }

    @Test func theNextRequestGoesOutWhenTheReaderIsWithinAQuarterOfALead() {
        // 8,000 consumed: a lead of 500. Asked up to 8,300: 300 ahead, so wait until the
        // reader is at 8,175, a quarter of a lead (125) from 8,300.
        let ahead = pacing.decide(start: 0, requested: 8_300, inFlight: 1, readers: [reader(8_000)], limit: nil)
        // Asked up to 8,125: 125 ahead, a quarter of a lead; the next request tops it up to
        // 8,500 (three quarters of a lead), while the first is still arriving.
        let close = pacing.decide(start: 0, requested: 8_125, inFlight: 1, readers: [reader(8_000)], limit: nil)
        let early = pacing.decide(start: 0, requested: 8_126, inFlight: 1, readers: [reader(8_000)], limit: nil)
        #expect(ahead == .wait(until: 8_175))
        #expect(close == .request(upTo: 8_500))
        #expect(early == .wait(until: 8_001))
    }

    @Test func noMoreThanTwoRequestsArriveAtOnce() {
        let decision = pacing.decide(start: 0, requested: 100, inFlight: 2, readers: [reader(100)], limit: nil)
        #expect(decision == .wait(until: nil), "only a request's end makes room")
    }

    @Test func whereTheLimitLeavesLessThanARefillTheFetchWaitsForTheReaderToGetThere() {
        let decision = pacing.decide(start: 0, requested: 150, inFlight: 1, readers: [reader(120)], limit: 160)
        #expect(decision == .wait(until: 150))
    }

    @Test func aStarvingReaderGetsARequestWhateverItsSize() {
        let decision = pacing.decide(start: 0, requested: 150, inFlight: 0, readers: [reader(150)], limit: 160)
        #expect(decision == .request(upTo: 160))
    }

    @Test func aBoundedReadIsAskedForExactlyInRequestsOfAtMostTheWindow() {
        let first = pacing.decide(start: 0, requested: 0, inFlight: 0, readers: [reader(0, end: 1_000)], limit: nil)
        let second = pacing.decide(start: 0, requested: 800, inFlight: 1, readers: [reader(0, end: 1_000)], limit: nil)
        let after = pacing.decide(start: 0, requested: 1_000, inFlight: 1, readers: [reader(0, end: 1_000)], limit: nil)
        #expect(first == .request(upTo: 800))
        #expect(second == .request(upTo: 1_000))
        #expect(after == .done)
    }

    @Test func aFetchNobodyWaitsOnAsksForNothingMore() {
        let decision = pacing.decide(start: 0, requested: 100, inFlight: 1, readers: [], limit: nil)
        #expect(decision == .done)
    }

    @Test func nothingIsAskedForBeyondTheLimit() {
        let capped = pacing.decide(start: 0, requested: 0, inFlight: 0, readers: [reader(0)], limit: 60)
        let reached = pacing.decide(start: 0, requested: 60, inFlight: 0, readers: [reader(60)], limit: 60)
        #expect(capped == .request(upTo: 60))
        #expect(reached == .done)
    }
}

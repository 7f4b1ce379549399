import Testing
@testable import MediaCache

@Suite struct FetchPlanTests {
    @Test func aReaderWithinTheDistanceWaitsOnTheRunningFetch() {
        var plan = FetchPlan(coalescingDistance: 500)
        let result1 = plan.reader(1, needs: 0, gapEnd: 10_000)
        #expect(result1.0 == .start(0, from: 0, to: 10_000))
        let result2 = plan.reader(2, needs: 400, gapEnd: 10_000)
        #expect(result2.0 == .wait(0))
        #expect(plan.readers(of: 0) == [1, 2])
    }

    @Test func aReaderFarAheadStartsItsOwnFetchAndTheFirstStopsWhereItBegins() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = plan.reader(1, needs: 0, gapEnd: 10_000)
        let result3 = plan.reader(2, needs: 5_000, gapEnd: 10_000)
        #expect(result3.0 == .start(1, from: 5_000, to: 10_000))
        // A third reader between them runs only up to where the second fetch starts.
        let result4 = plan.reader(3, needs: 2_000, gapEnd: 10_000)
        #expect(result4.0 == .start(2, from: 2_000, to: 5_000))
        let result5 = plan.fetch(0, reached: 1_000, nextIsCached: false)
        #expect(result5)
        let result6 = plan.fetch(0, reached: 2_000, nextIsCached: true)
        #expect(!result6)
        #expect(plan.fetches[0] == nil)
        #expect(plan.attachments[1] == nil)
    }

    @Test func aFetchBehindTheReaderByMoreThanTheDistanceIsNotWaitedOn() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = plan.reader(1, needs: 0, gapEnd: nil)
        let result7 = plan.fetch(0, reached: 100, nextIsCached: false)
        #expect(result7)
        let result8 = plan.reader(2, needs: 600, gapEnd: nil)
        #expect(result8.0 == .wait(0))
        let result9 = plan.reader(3, needs: 601, gapEnd: nil)
        #expect(result9.0 == .start(1, from: 601, to: nil))
    }

    @Test func aFetchNobodyWaitsOnIsCancelled() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = plan.reader(1, needs: 0, gapEnd: 1_000)
        _ = plan.reader(2, needs: 100, gapEnd: 1_000)
        let result10 = plan.removeReader(1)
        #expect(result10.isEmpty)
        let result11 = plan.removeReader(2)
        #expect(result11 == [0])
        #expect(plan.fetches.isEmpty)
    }

    @Test func movingToANewFetchCancelsTheOldOneWhenNobodyElseNeedsIt() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = plan.reader(1, needs: 0, gapEnd: 1_000)
        let (decision, cancelled) = plan.reader(1, needs: 5_000, gapEnd: 6_000)
        #expect(decision == .start(1, from: 5_000, to: 6_000))
        #expect(cancelled == [0])
    }

    @Test func aFetchEndsAtItsEnd() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = plan.reader(1, needs: 0, gapEnd: 1_000)
        let result12 = plan.fetch(0, reached: 1_000, nextIsCached: false)
        #expect(!result12)
        #expect(plan.fetches.isEmpty)
    }

    @Test func whenTheOriginIgnoresRangesOneFetchFromTheStartServesEveryone() {
        var plan = FetchPlan(coalescingDistance: 500)
        plan.becomeSequential()
        let result13 = plan.reader(1, needs: 9_000, gapEnd: 10_000)
        #expect(result13.0 == .start(0, from: 0, to: nil))
        let result14 = plan.reader(2, needs: 50_000, gapEnd: nil)
        #expect(result14.0 == .wait(0))
        let result15 = plan.fetch(0, reached: 4_000, nextIsCached: true)
        #expect(result15)
    }
}

import Testing
@testable import MediaCache

@Suite(.timeLimit(.minutes(2))) struct FetchPlanTests {
    /// Reader `reader` needs `offset`; the decision alone.
    func decide(_ plan: inout FetchPlan, _ reader: Int, needs offset: Int64, gapEnd: Int64?) -> FetchPlan.Decision {
        plan.reader(reader, needs: offset, gapEnd: gapEnd).0
    }

    @Test func aReaderWithinTheDistanceWaitsOnTheRunningFetch() {
        var plan = FetchPlan(coalescingDistance: 500)
        let first = decide(&plan, 1, needs: 0, gapEnd: 10_000)
        let second = decide(&plan, 2, needs: 400, gapEnd: 10_000)
        #expect(first == .start(0, from: 0, to: 10_000))
        #expect(second == .wait(0))
        #expect(plan.readers(of: 0) == [1, 2])
    }

    @Test func aReaderFarAheadStartsItsOwnFetchAndTheFirstStopsWhereItBegins() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = decide(&plan, 1, needs: 0, gapEnd: 10_000)
        let far = decide(&plan, 2, needs: 5_000, gapEnd: 10_000)
        // A third reader between them runs only up to where the second fetch starts.
        let between = decide(&plan, 3, needs: 2_000, gapEnd: 10_000)
        #expect(far == .start(1, from: 5_000, to: 10_000))
        #expect(between == .start(2, from: 2_000, to: 5_000))
    }

    @Test func aFetchBehindTheReaderByMoreThanTheDistanceIsNotWaitedOn() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = decide(&plan, 1, needs: 0, gapEnd: nil)
        _ = plan.fetch(0, reached: 100)
        let atTheDistance = decide(&plan, 2, needs: 600, gapEnd: nil)
        let beyond = decide(&plan, 3, needs: 601, gapEnd: nil)
        #expect(atTheDistance == .wait(0))
        #expect(beyond == .start(1, from: 601, to: nil))
    }

    @Test func aReaderWaitsOnAFetchThatAskedForItsOffsetHoweverFarAhead() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = decide(&plan, 1, needs: 0, gapEnd: nil)
        plan.fetch(0, requested: 4_000)
        let asked = decide(&plan, 2, needs: 3_000, gapEnd: nil)
        let beyond = decide(&plan, 3, needs: 4_000, gapEnd: nil)
        #expect(asked == .wait(0))
        #expect(beyond == .start(1, from: 4_000, to: nil))
    }

    @Test func aFetchNobodyWaitsOnStaysWhileItDrainsAndAReturningReaderWaitsOnIt() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = decide(&plan, 1, needs: 0, gapEnd: 1_000)
        _ = decide(&plan, 2, needs: 100, gapEnd: 1_000)
        let afterFirstLeaves = plan.removeReader(1)
        let afterSecondLeaves = plan.removeReader(2)
        _ = plan.fetch(0, reached: 300)
        // A reader that comes back for bytes the draining fetch is receiving waits on it,
        // rather than fetching them a second time.
        let draining = plan.drainExpired(0)
        let returning = decide(&plan, 3, needs: 400, gapEnd: 1_000)
        #expect(afterFirstLeaves.isEmpty)
        #expect(afterSecondLeaves == [0])
        #expect(draining, "it would stop were its drain time up")
        #expect(returning == .revive(0))
        #expect(plan.readers(of: 0) == [3])
        #expect(!plan.drainExpired(0), "revived, it goes on whatever its drain timer says")
        let joining = decide(&plan, 4, needs: 450, gapEnd: 1_000)
        #expect(joining == .wait(0))
    }

    @Test func anEndedFetchLeavesThePlanAndItsReaders() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = decide(&plan, 1, needs: 0, gapEnd: 1_000)
        plan.fetchEnded(0)
        let stillPlanned = plan.fetch(0, reached: 1_000)
        #expect(plan.fetches.isEmpty)
        #expect(plan.attachments.isEmpty)
        #expect(!stillPlanned)
    }

    @Test func movingToANewFetchOrphansTheOldOneWhenNobodyElseNeedsIt() {
        var plan = FetchPlan(coalescingDistance: 500)
        _ = decide(&plan, 1, needs: 0, gapEnd: 1_000)
        let (decision, orphaned) = plan.reader(1, needs: 5_000, gapEnd: 6_000)
        #expect(decision == .start(1, from: 5_000, to: 6_000))
        #expect(orphaned == [0])
    }

    @Test func whenTheOriginIgnoresRangesOneFetchFromTheStartServesEveryone() {
        var plan = FetchPlan(coalescingDistance: 500)
        plan.becomeSequential()
        let first = decide(&plan, 1, needs: 9_000, gapEnd: 10_000)
        let farAway = decide(&plan, 2, needs: 50_000, gapEnd: nil)
        #expect(first == .start(0, from: 0, to: nil))
        #expect(farAway == .wait(0))
        // It could only start over from byte 0, so nobody waiting on it ends it at once.
        _ = plan.removeReader(1)
        let orphaned = plan.removeReader(2)
        #expect(orphaned == [0])
        #expect(plan.fetches.isEmpty)
    }
}

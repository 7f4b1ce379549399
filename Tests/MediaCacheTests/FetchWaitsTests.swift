import Testing
@testable import MediaCache

/// When waiting fetches go on (``FetchWaits``), without I/O: paused sequential fetches, ranged
/// fetches waiting for demand, thresholds, and the epoch that catches a change before a wait.
@Suite(.timeLimit(.minutes(2))) struct FetchWaitsTests {
    typealias Reader = FetchWaits.Reader

    @Test func aReaderWakesPausedFetchesAndTheDemandItBrings() {
        var waits = FetchWaits()
        waits.decided(1, .wait(until: 1_000))
        waits.wait(1, .demand)
        waits.wait(2, .paused)
        waits.decided(3, .wait(until: nil))
        waits.wait(3, .demand)
        let short = waits.readerAdvanced(Reader(position: 500, end: nil))
        #expect(short == [2], "short of the threshold only the paused fetch wakes")
        let atThreshold = waits.readerAdvanced(Reader(position: 1_000, end: nil))
        #expect(atThreshold == [1])
        let far = waits.readerAdvanced(Reader(position: .max - 1, end: nil))
        #expect(far.isEmpty, "only a request's end wakes fetch 3")
        let bounded = waits.readerAdvanced(Reader(position: 10, end: 20))
        #expect(bounded == [3], "any bounded reader may need more")
        #expect(waits.waiting.isEmpty)
    }

    @Test func aFetchWithoutAThresholdWakesForAnyRead() {
        var waits = FetchWaits()
        waits.decided(1, .request(upTo: 100))
        waits.wait(1, .demand)
        let first = waits.wake(1, for: Reader(position: 0, end: nil))
        let second = waits.wake(1, for: Reader(position: 0, end: nil))
        #expect(first && !second, "woken once")
    }

    @Test func readersMovingWakeEveryFetchAndMakeAnEarlierDecisionStale() {
        var waits = FetchWaits()
        waits.decided(1, .wait(until: 1_000))
        let decidedAt = waits.epoch
        #expect(waits.mayWaitForDemand(1, after: decidedAt, readers: [Reader(position: 10, end: nil)]))
        #expect(
            !waits.mayWaitForDemand(1, after: decidedAt, readers: [Reader(position: 1_000, end: nil)]),
            "a reader at the threshold already")
        waits.wait(1, .demand)
        waits.wait(2, .paused)
        let woken = waits.readersMoved()
        #expect(woken == [1, 2])
        #expect(!waits.mayWaitForDemand(1, after: decidedAt, readers: []), "readers moved after the decision")
        #expect(waits.mayWaitForDemand(1, after: waits.epoch, readers: []))
    }

    @Test func aStoppedOrEndedFetchNoLongerWaitsAndLosesItsThreshold() {
        var waits = FetchWaits()
        waits.decided(1, .wait(until: 5))
        waits.wait(1, .demand)
        let (stopped, stoppedAgain) = (waits.stop(1), waits.stop(1))
        #expect(stopped && !stoppedAgain)
        waits.wait(1, .demand)
        let (ended, endedAgain) = (waits.ended(1), waits.ended(1))
        #expect(ended && !endedAgain)
        #expect(waits.thresholds[1] == nil && waits.waiting.isEmpty)
    }
}

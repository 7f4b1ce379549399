@testable import MediaCacheServer
import Testing

/// Which of the client's deadlines runs in each phase of a keep-alive connection.
struct ConnectionDeadlinesTests {
    @Test func aRequestsFirstByteSwitchesFromTheIdleDeadlineToTheRequestDeadline() {
        var deadlines = ConnectionDeadlines()
        #expect(deadlines.opened() == .arm(.idle))
        #expect(deadlines.bytesArrived() == .arm(.request))
        #expect(deadlines.bytesArrived() == .keep, "a trickled head does not restart its deadline")
        #expect(deadlines.requestArrived() == .disarm, "waiting on the origin is not the client's doing")
        #expect(deadlines.responseEnded() == .arm(.idle))
    }

    @Test func aPipelinedRequestStartsItsDeadlineWhenThePreviousResponseEnds() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.bytesArrived()
        _ = deadlines.requestArrived()
        #expect(deadlines.bytesArrived() == .keep)
        #expect(deadlines.responseEnded() == .arm(.request))
        #expect(deadlines.requestArrived() == .disarm)
        #expect(deadlines.responseEnded() == .arm(.idle), "the pipelined bytes were that request's")
    }

    @Test func theIdleDeadlineWaitsWhileTheClientStillHasResponseBytesToTake() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.bytesArrived()
        _ = deadlines.requestArrived()
        #expect(deadlines.outputBlocked() == .keep)
        #expect(deadlines.responseEnded() == .disarm, "the send timeout watches a client that takes nothing")
        #expect(deadlines.outputDrained() == .arm(.idle))
        #expect(deadlines.outputBlocked() == .disarm)
        #expect(deadlines.bytesArrived() == .arm(.request))
        #expect(deadlines.outputDrained() == .keep, "a request is arriving: its deadline runs on")
    }
}

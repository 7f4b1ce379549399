import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
@testable import MediaCacheServer

/// The connections' tasks: the listener waits for every one it started, and stopping at once
/// cancels those running and those that start afterwards.
@Suite(.timeLimit(.minutes(2))) struct ConnectionTasksTests {
    let loop = MultiThreadedEventLoopGroup.singleton.next()

    @Test func waitingForAllWaitsForEveryTaskStarted() async throws {
        let tasks = ConnectionTasks()
        let ended = NIOLockedValueBox(0)
        let gate = AsyncStream<Void>.makeStream()
        for _ in 0..<3 {
            tasks.start(on: loop) {
                for await _ in gate.stream {}
                ended.withLockedValue { $0 += 1 }
            }
        }
        tasks.start(on: loop) { ended.withLockedValue { $0 += 1 } }
        let waiting = Task {
            await tasks.waitForAll()
            return ended.withLockedValue { $0 }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(ended.withLockedValue { $0 } == 1, "the three held tasks are still running")
        gate.continuation.finish()
        #expect(await waiting.value == 4)
    }

    @Test func cancellingAllCancelsRunningTasksAndLaterOnes() async throws {
        let tasks = ConnectionTasks()
        let cancelled = NIOLockedValueBox(0)
        tasks.start(on: loop) {
            try? await Task.sleep(for: .seconds(3600))
            if Task.isCancelled { cancelled.withLockedValue { $0 += 1 } }
        }
        tasks.cancelAll()
        tasks.start(on: loop) {
            if Task.isCancelled { cancelled.withLockedValue { $0 += 1 } }
        }
        await tasks.waitForAll()
        #expect(cancelled.withLockedValue { $0 } == 2)
    }

    @Test func aTaskRunsOnTheEventLoopItWasStartedOn() async throws {
        let tasks = ConnectionTasks()
        let onLoop = NIOLockedValueBox(false)
        tasks.start(on: loop) { [loop] in onLoop.withLockedValue { $0 = loop.inEventLoop } }
        await tasks.waitForAll()
        #expect(onLoop.withLockedValue { $0 })
    }
}

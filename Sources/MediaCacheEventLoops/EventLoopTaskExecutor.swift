import NIOCore

/// Runs the jobs of the tasks that prefer it on one NIO event loop, and those of the actors
/// without an executor of their own that such a task calls (the loader's), so that they run on
/// the thread that reads and writes a socket, with no hand-over between threads:
///
/// - the proxy's request tasks, on their connection's loop (`ProxyChannel`): a cache hit
///   is read, answered from the store and queued to the socket on one thread, as nginx does in
///   one worker. The connections' loops are their own (`ProxyServer.connectionLoops`), so that
///   this work never waits behind the origin connections on NIO's shared loops.
/// - the start of a fetch, on the loop its origin's request is made on
///   (``HTTPOrigin/requestExecutor(for:)``; in `mediacache serve`, the loop of the client
///   connection that asked): its request leaves, and its answer's head is recorded and handed
///   to the waiting readers, where the connection reads it.
///
/// ```swift
/// await withTaskExecutorPreference(EventLoopTaskExecutor(channel.eventLoop)) {
///     // this task's jobs run on `channel.eventLoop`
/// }
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
package final class EventLoopTaskExecutor: TaskExecutor {
    package let eventLoop: any EventLoop

    package init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

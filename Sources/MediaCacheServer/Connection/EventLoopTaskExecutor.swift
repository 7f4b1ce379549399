import NIOCore

/// Runs the jobs of the tasks that prefer it on one NIO event loop: a connection's task, and
/// the actors without an executor of their own it calls (the loader's), run on the thread that
/// reads and writes its socket (see ``ProxyChannel``).
///
/// A cache hit then costs no thread hand-over: its request is read, answered from the store
/// and queued to the socket on one thread, as nginx does in one worker. Work that waits (a
/// miss's fetch, a commit) still waits elsewhere: the loader's fetches are tasks of their own,
/// and the store commits on its own queue. The connections' loops are their own
/// (``ProxyServer/connectionLoops``), so that this work never waits behind the origin
/// connections on NIO's shared loops.
///
/// ```swift
/// await withTaskExecutorPreference(EventLoopTaskExecutor(channel.eventLoop)) {
///     // this task's jobs run on `channel.eventLoop`
/// }
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, visionOS 2.0, macCatalyst 18.0, *)
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

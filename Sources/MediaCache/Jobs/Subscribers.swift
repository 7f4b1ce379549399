import Foundation

/// The streams a job runner's changes go to (``Preloader/updates()``, the download manager's):
/// each subscriber gets every change from the moment it subscribed, keeping the newest 1,024 a
/// slow one has not read.
package struct Subscribers<Value: Sendable> {
    private var continuations: [UUID: AsyncStream<Value>.Continuation] = [:]

    package init() {}

    /// A new subscriber's stream; `ended` is told its identifier when the subscriber stops
    /// reading, to ``remove(_:)`` it on its owner's executor.
    package mutating func subscribe(ended: @escaping @Sendable (UUID) -> Void) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        continuations[id] = continuation
        continuation.onTermination = { _ in ended(id) }
        return stream
    }

    package mutating func remove(_ id: UUID) {
        continuations[id] = nil
    }

    /// Hands `value` to every subscriber.
    package func yield(_ value: Value) {
        for continuation in continuations.values { continuation.yield(value) }
    }
}

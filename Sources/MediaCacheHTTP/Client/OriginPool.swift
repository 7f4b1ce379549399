import NIOCore

/// One event loop's connections to origins: the idle ones by endpoint, newest last, and all
/// open ones, for shutdown. Used only on its loop; every endpoint's connections live on the
/// one loop its host maps to (``OriginClient``).
final class OriginPool {
    private struct Idle {
        let connection: OriginConnection
        /// Closes the connection once it stayed idle for the idle timeout.
        let expiry: Scheduled<Void>
    }

    private let loop: any EventLoop
    private let idleTimeout: TimeAmount
    private var idle: [OriginEndpoint: [Idle]] = [:]
    /// Every open connection, with its endpoint.
    private var open: [ObjectIdentifier: (connection: OriginConnection, endpoint: OriginEndpoint)] = [:]

    init(loop: any EventLoop, idleTimeout: TimeAmount) {
        self.loop = loop
        self.idleTimeout = idleTimeout
    }

    /// The most recently used idle connection to `endpoint` that is still open.
    func take(_ endpoint: OriginEndpoint) -> OriginConnection? {
        while let entry = idle[endpoint]?.popLast() {
            entry.expiry.cancel()
            if entry.connection.isActive { return entry.connection }
        }
        return nil
    }

    /// Records a new connection to `endpoint`, unless it closed already.
    func opened(_ connection: OriginConnection, to endpoint: OriginEndpoint) {
        guard connection.isActive else { return }
        open[ObjectIdentifier(connection)] = (connection, endpoint)
    }

    /// Keeps `connection` for the next request to its endpoint.
    func release(_ connection: OriginConnection) {
        guard let endpoint = open[ObjectIdentifier(connection)]?.endpoint else { return connection.close() }
        let bound = NIOLoopBound(connection, eventLoop: loop)
        let expiry = loop.scheduleTask(in: idleTimeout) { bound.value.close() }
        idle[endpoint, default: []].append(Idle(connection: connection, expiry: expiry))
    }

    /// Forgets `connection`, which closed.
    func closed(_ connection: OriginConnection) {
        guard let endpoint = open.removeValue(forKey: ObjectIdentifier(connection))?.endpoint else { return }
        idle[endpoint]?.removeAll { entry in
            guard entry.connection === connection else { return false }
            entry.expiry.cancel()
            return true
        }
    }

    /// Closes every connection, idle or carrying a request; the futures complete once they
    /// have closed.
    func closeAll() -> [EventLoopFuture<Void>] {
        open.values.compactMap { entry in
            entry.connection.close()
            return entry.connection.closeFuture
        }
    }
}

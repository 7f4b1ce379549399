/// When a connection's client has taken too long: the phases of a keep-alive connection and
/// which of the client's deadlines runs in each, as a state machine that
/// ``ConnectionWatchdog`` drives and whose actions it carries out.
///
/// - Between requests the *idle* deadline runs: a connection that sends nothing is closed.
///   It waits while a response's last bytes are still queued for the client, whose reading is
///   watched by the send deadline instead.
/// - From a request's first byte the *request* deadline runs until its head and body have
///   arrived, so that a client trickling a request (slowloris) cannot hold the connection.
/// - While a response is prepared and sent, neither runs: waiting on the origin is not the
///   client's doing.
struct ConnectionDeadlines: Equatable {
    /// The client's deadline that an action arms.
    enum Deadline: Equatable {
        case idle
        case request
    }

    /// What the watchdog does with the client's deadline.
    enum Action: Equatable {
        /// Start `deadline`, replacing the one running.
        case arm(Deadline)
        /// Stop the deadline running.
        case disarm
        /// Leave it as it is.
        case keep
    }

    private enum Phase: Equatable {
        case idle
        case readingRequest
        case responding
    }

    private var phase = Phase.idle
    /// Bytes of a pipelined request arrived while a response was in progress.
    private var hasPipelinedBytes = false
    /// Response bytes wait for the client to take them.
    private var isOutputBlocked = false

    /// The connection opened.
    mutating func opened() -> Action {
        .arm(.idle)
    }

    /// Request bytes arrived from the client.
    mutating func bytesArrived() -> Action {
        switch phase {
        case .idle:
            phase = .readingRequest
            return .arm(.request)
        case .readingRequest:
            return .keep
        case .responding:
            hasPipelinedBytes = true
            return .keep
        }
    }

    /// A whole request arrived; its response is being prepared.
    mutating func requestArrived() -> Action {
        phase = .responding
        hasPipelinedBytes = false
        return .disarm
    }

    /// The response's last part was handed to the connection.
    mutating func responseEnded() -> Action {
        guard !hasPipelinedBytes else {
            phase = .readingRequest
            hasPipelinedBytes = false
            return .arm(.request)
        }
        phase = .idle
        return isOutputBlocked ? .disarm : .arm(.idle)
    }

    /// The connection holds more response bytes than the client has taken.
    mutating func outputBlocked() -> Action {
        isOutputBlocked = true
        return phase == .idle ? .disarm : .keep
    }

    /// The client took the response bytes that were waiting.
    mutating func outputDrained() -> Action {
        isOutputBlocked = false
        return phase == .idle ? .arm(.idle) : .keep
    }
}

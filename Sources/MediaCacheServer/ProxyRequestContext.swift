import Hummingbird
import MediaCache
import NIOCore

/// The context of one request to the proxy: what was decided on it, the client's address and
/// the tally of where the response's bytes came from, for the access log.
struct ProxyRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// What the connection decided on the request from its head (see ``ProxyRules``).
    let decision: ProxyDecision
    /// The client's address, when the connection has one.
    let remoteAddress: SocketAddress?
    /// Filled by whoever writes the body; read by ``LoggingResponder`` once it is written.
    let tally = ResponseTally()
    /// Completes when the client's connection closes, also while no byte is being written.
    let connectionClosed: EventLoopFuture<Void>

    init(source: ApplicationRequestContextSource, decision: ProxyDecision) {
        coreContext = CoreRequestContextStorage(source: source)
        self.decision = decision
        remoteAddress = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }

    /// A context for a request nobody decided on, which is refused; the proxy's connections
    /// always decide (``init(source:decision:)``).
    init(source: ApplicationRequestContextSource) {
        self.init(source: source, decision: .reject(ProxyRefusal(.internalServerError, "the request was not decided")))
    }
}

/// Where one response's body bytes came from.
final class ResponseTally: Sendable {
    struct Counts {
        var fromCache: Int64 = 0
        var fromOrigin: Int64 = 0
        /// Why the body ended early, when it did.
        var failure: String?
        /// What went wrong although the response was served, such as bytes the cache could
        /// not store; it goes to the error log.
        var notice: String?
    }

    private let counts = Locked(Counts())

    var snapshot: Counts { counts.withLock { $0 } }

    func add(_ part: ReadPart) {
        add(part.count, from: part.source)
    }

    func add(_ count: Int64, from source: ByteChunk.Source) {
        counts.withLock { counts in
            switch source {
            case .cache: counts.fromCache += count
            case .network: counts.fromOrigin += count
            }
        }
    }

    func fail(_ reason: String) {
        counts.withLock { $0.failure = reason }
    }

    func note(_ problem: String) {
        counts.withLock { $0.notice = problem }
    }
}

import Foundation
import MediaCache
import MediaCacheAPI
import NIOCore

/// The proxy's access and error logs (see ``ProxyLogFields``), as every answer writes them:
/// those of the Hummingbird responders (``LoggingResponder``) and the cache hits a connection
/// answers at once (``ProxyChannel``).
struct ProxyLog: Sendable {
    let access: ExtendedLogFile?
    let errors: ExtendedLogFile?

    /// The request a line is about, as the lines name it.
    struct Entry: Sendable {
        let client: String?
        let method: String
        /// The request target, with the token of a `/t/<token>/` prefix written as `-`.
        let target: String

        init(client: SocketAddress?, method: String, target: String) {
            self.init(client: client?.ipAddress, method: method, target: target)
        }

        /// `client` is the client's address as the lines write it, such as `127.0.0.1`.
        init(client: String?, method: String, target: String) {
            self.client = client
            self.method = method
            self.target = ProxyLog.redacted(target)
        }
    }

    /// Writes the access-log line of a response that sent `sent` body bytes and, when there
    /// is an `error` or a notice in `counts`, its error-log line.
    func record(
        _ entry: Entry, status: Int, sent: Int64, counts: ResponseTally.Counts, start: ContinuousClock.Instant,
        error: String?
    ) {
        access?.append([
            entry.client, entry.method, entry.target, "\(status)", "\(sent)", "\(counts.fromCache)",
            "\(counts.fromOrigin)", ExtendedLogFormat.seconds(ContinuousClock.now - start),
        ])
        if let error = error ?? counts.notice {
            errors?.append([entry.client, entry.method, entry.target, "\(status)", error])
        }
    }

    /// `target` with the token of a `/t/<token>/` prefix replaced by `-`.
    static func redacted(_ target: String) -> String {
        guard target.hasPrefix("/t/") else { return target }
        let rest = target.dropFirst(3)
        guard let slash = rest.firstIndex(of: "/") else { return "/t/-" }
        return "/t/-" + rest[slash...]
    }
}

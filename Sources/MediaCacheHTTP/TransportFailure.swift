import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A failed connection or transfer, said the way a person can act on it:
/// `could not connect to cdn.example:443 (connection refused)`.
enum TransportFailure {
    /// Why talking to `url`'s host failed, from what ``OriginClient``, NIO or TLS threw.
    static func reason(_ error: any Error, url: URL) -> String {
        let target = "\(url.host ?? "?"):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
        if let failure = error as? ChannelError, case .connectTimeout = failure {
            return "could not connect to \(target) (timed out)"
        }
        switch error {
        case let failure as NIOConnectionError:
            if failure.dnsAError != nil || failure.dnsAAAAError != nil {
                return "could not resolve \(failure.host)"
            }
            guard let first = failure.connectionErrors.first?.error else { return "could not connect to \(target)" }
            return reason(first, url: url)
        case let failure as IOError:
            return connection(failure.errnoCode, target: target)
        case let failure as OriginClientError:
            return client(failure, target: target)
        case let failure as NIOSSLError:
            return "TLS with \(target) failed (\(failure)); its certificate must be valid for the host and signed by a "
                + "trusted authority (HTTPOrigin.Configuration.trustedCertificateFiles adds one)"
        case let failure as HTTPParserError:
            if case .headerOverflow = failure { return "\(target) sent a response head over 80 KiB" }
            return "\(target) sent a malformed response (\(failure))"
        default:
            return "\(error)"
        }
    }

    private static func client(_ failure: OriginClientError, target: String) -> String {
        switch failure {
        case .closedBeforeAnswer: "\(target) closed the connection before answering"
        case .closedMidResponse: "\(target) closed the connection before the response's end"
        case .readTimeout: "\(target) stopped sending"
        case .tooManyRedirects(let limit): "\(target) redirected more than \(limit) times"
        case .redirectCycle(let url): "\(target) redirected back to \(url.absoluteString)"
        case .unsupportedURL(let url): "\(url.absoluteString) is not an http or https URL with a host"
        case .shutDown: "the origin client was shut down"
        }
    }

    private static func connection(_ code: Int32, target: String) -> String {
        switch code {
        case ECONNREFUSED: "could not connect to \(target) (connection refused)"
        case ECONNRESET: "\(target) reset the connection"
        case ETIMEDOUT: "could not connect to \(target) (timed out)"
        case EHOSTUNREACH, ENETUNREACH: "could not reach \(target) (no route)"
        default: "connection to \(target) failed (\(String(cString: strerror(code))))"
        }
    }
}

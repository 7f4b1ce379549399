import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaCache

/// The delegate of a ``URLSessionOrigin``'s session: hands each data task's events to its
/// ``DataTaskStream``, and passes what the app's own delegate decides on to it, so that its
/// answers hold for media requests too: authentication challenges (credentials, certificate
/// pinning) and redirects.
///
/// One delegate for the session, not one per task (`URLSessionTask.delegate`), because
/// swift-corelibs-foundation does not call a task's own delegate.
final class SessionRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let streams = Locked<[Int: DataTaskStream]>([:])
    private let app: (any URLSessionDelegate)?

    /// A router passing challenges and redirects to `app`.
    init(forwardingTo app: (any URLSessionDelegate)?) {
        self.app = app
    }

    /// Hands `task`'s events to `stream` until it completes; call before resuming it.
    func route(_ task: URLSessionTask, to stream: DataTaskStream) {
        streams.withLock { $0[task.taskIdentifier] = stream }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        stream(of: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        stream(of: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        streams.withLock { $0.removeValue(forKey: task.taskIdentifier) }?.completed(error)
    }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        guard let app else { return completionHandler(.performDefaultHandling, nil) }
        app.urlSession(session, didReceive: challenge, completionHandler: completionHandler)
        #else
        // An optional requirement: `nil` when the app's delegate does not implement it.
        guard app?.urlSession?(session, didReceive: challenge, completionHandler: completionHandler) != nil else {
            return completionHandler(.performDefaultHandling, nil)
        }
        #endif
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        guard let app = app as? any URLSessionTaskDelegate else {
            return urlSession(session, didReceive: challenge, completionHandler: completionHandler)
        }
        app.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
        #else
        guard
            (app as? any URLSessionTaskDelegate)?.urlSession?(
                session, task: task, didReceive: challenge,
                completionHandler: completionHandler) != nil
        else {
            return urlSession(session, didReceive: challenge, completionHandler: completionHandler)
        }
        #endif
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        guard let app = app as? any URLSessionTaskDelegate else { return completionHandler(request) }
        app.urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: request,
            completionHandler: completionHandler)
        #else
        guard
            (app as? any URLSessionTaskDelegate)?.urlSession?(
                session, task: task, willPerformHTTPRedirection: response,
                newRequest: request, completionHandler: completionHandler) != nil
        else { return completionHandler(request) }
        #endif
    }

    private func stream(of task: URLSessionTask) -> DataTaskStream? {
        streams.withLock { $0[task.taskIdentifier] }
    }
}

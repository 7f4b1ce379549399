import Foundation

/// Calls back each time the app returns to the foreground, where iOS may have taken the
/// embedded proxy's listening socket while the app was suspended.
///
/// It listens for UIKit's `UIApplicationWillEnterForegroundNotification` by its name, so that
/// the adapter needs no UIKit (and no main actor to read the name); on platforms without
/// UIKit nothing posts it.
enum ForegroundObserver {
    /// The name UIKit posts `UIApplication.willEnterForegroundNotification` under.
    static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")

    /// Runs `action` after every return to the foreground, for as long as the app runs.
    static func observe(_ action: @escaping @Sendable () async -> Void) {
        _ = NotificationCenter.default.addObserver(forName: willEnterForeground, object: nil, queue: nil) { _ in
            Task { await action() }
        }
    }
}

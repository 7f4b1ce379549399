import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The most bytes one connection's socket holds that the kernel has not yet sent
/// (`TCP_NOTSENT_LOWAT`, 1 MiB), set while the connection sends anything but a whole cache hit.
///
/// A miss's reader runs ahead of its player by what the kernel holds, and its fetch with it:
/// without a limit the kernel takes megabytes on loopback, which a player that leaves early
/// has cost the origin without playing them. The limit bounds only what waits to be sent, not
/// what is in flight, so a link's own speed is untouched. A whole hit lifts it: a hit costs no
/// origin bytes, and the limit would only add wake-ups to refill the socket.
final class UnsentByteLimit: Sendable {
    /// The limit while it is set.
    static let bytes: Int32 = 1 << 20

    private let channel: any Channel
    /// Whether the limit is set on the socket now: written on the channel's event loop, read
    /// also from a response's task.
    private let isSet = NIOLockedValueBox(false)

    private static let option = ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_NOTSENT_LOWAT))

    /// The limit of `channel`, an accepted connection, which starts without one.
    init(channel: any Channel) {
        self.channel = channel
    }

    /// Sets the limit before a response that is not a whole hit is written, if it is not set.
    /// Call from the response's task; it reaches the event loop before anything the task writes
    /// after it. A refusal leaves the socket as it was: the limit spares origin bytes, it is
    /// never a condition.
    func setForOtherResponses() {
        guard !isSet.withLockedValue({ $0 }) else { return }
        let set: @Sendable () -> Void = { [channel, isSet] in
            guard (try? channel.syncOptions?.setOption(Self.option, value: SocketOptionValue(Self.bytes))) != nil else { return }
            isSet.withLockedValue { $0 = true }
        }
        if channel.eventLoop.inEventLoop { set() } else { channel.eventLoop.execute(set) }
    }

    /// Lifts the limit before a whole hit is written, if it is set. Call on the channel's event loop.
    func liftForHit() {
        guard isSet.withLockedValue({ $0 }),
            (try? channel.syncOptions?.setOption(Self.option, value: 0)) != nil
        else { return }
        isSet.withLockedValue { $0 = false }
    }
}

import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The most bytes one connection's socket holds that the kernel has not yet sent
/// (`TCP_NOTSENT_LOWAT`, 1 MiB), set while the connection sends anything but a whole cache hit.
///
/// A miss's reader runs ahead of its player by what the kernel holds, and its fetch with it.
/// Without a limit the kernel takes whatever its send buffer has room for, megabytes on
/// loopback, so a player that leaves early has cost the origin bytes it never played: one that
/// read 256 KiB of a cold 256 MiB file and left after 3 s cost the origin 7.2–11.2 MiB. With
/// the limit it cost 4.13 MiB in 11 of 13 tries (the first 100 KiB and one read-ahead request
/// of 4 MiB), 7.6–7.8 MiB in the other two. The limit bounds only what waits to be sent, not
/// what is in flight, so a link's own speed is untouched (BENCHMARKS.md, "A low-water mark for
/// unsent bytes").
///
/// A whole hit lifts the limit: it costs no origin bytes, and on loopback at 64 connections the
/// limit made the server's CPU per GiB served 0.15–0.18 s instead of 0.11–0.14 s (more wake-ups
/// to refill the socket), for no faster transfer.
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
              (try? channel.syncOptions?.setOption(Self.option, value: 0)) != nil else { return }
        isSet.withLockedValue { $0 = false }
    }
}

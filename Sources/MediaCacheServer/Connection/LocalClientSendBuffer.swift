import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The send buffer of one connection whose client runs on this machine (a player on
/// loopback): larger than the kernel tunes it to while the connection sends cache hits, the
/// kernel's own size while it sends anything else.
///
/// A hit leaves by `sendfile`, which queues references to the page cache, not copies, so a
/// larger buffer costs little memory and takes a hit in fewer calls, each a wake-up of the event
/// loop less. Any other response gets the size the kernel had tuned the buffer to: a miss's
/// reader runs ahead of its player by what the kernel holds, and a larger buffer would cost the
/// origin bytes a player that leaves never plays.
///
/// Linux grants twice what a socket asks for, up to twice `net.core.wmem_max`, and setting the
/// size turns its own tuning off for that socket; so the size is asked for only where the grant
/// is more than the tuning would reach. Remote clients keep the kernel's tuning, which follows
/// their link. Other platforms keep their own sizes.
///
/// A response counts as sent what the kernel took, as nginx's `$body_bytes_sent` does
/// (``FileRegionSender``'s parts).
final class LocalClientSendBuffer: Sendable {
    /// The size asked for.
    static let requested = 4 << 20

    /// The size to ask for on this machine, `nil` where asking would not enlarge the buffer.
    static let size: Int? = {
        #if os(Linux)
        size(wmemMax: number(at: "/proc/sys/net/core/wmem_max"), tunedMax: number(at: "/proc/sys/net/ipv4/tcp_wmem", field: 2))
        #else
        nil
        #endif
    }()

    /// The size to ask for when the kernel caps a request at `wmemMax` and tunes buffers up to
    /// `tunedMax` (both in bytes, `nil` when unknown): ``requested`` when the kernel would grant
    /// more than `tunedMax`, else `nil`.
    static func size(wmemMax: Int?, tunedMax: Int?) -> Int? {
        guard let wmemMax, let tunedMax else { return nil }
        return 2 * min(requested, wmemMax) > tunedMax ? requested : nil
    }

    private let channel: any Channel
    /// The size to ask for hits; `nil` for a remote client, or where asking would not enlarge.
    private let hitSize: Int?
    /// The size the kernel had tuned the buffer to when a hit enlarged it; `nil` while the
    /// buffer is the kernel's.
    private let tuned = NIOLockedValueBox<Int?>(nil)

    private static let option = ChannelOptions.socketOption(.so_sndbuf)

    /// The buffer of `channel`, an accepted connection.
    init(channel: any Channel) {
        self.channel = channel
        hitSize = channel.remoteAddress.map(LoopbackAddress.isLoopback) == true ? Self.size : nil
    }

    /// Enlarges the buffer before a hit is written, if it is not yet. Call on the channel's
    /// event loop. A refusal leaves the kernel's size: the size is an optimisation, never a
    /// condition.
    func enlargeForHit() {
        guard let hitSize, tuned.withLockedValue({ $0 }) == nil, let options = channel.syncOptions,
            let current = try? options.getOption(Self.option),
            (try? options.setOption(Self.option, value: hitSize)) != nil
        else { return }
        tuned.withLockedValue { $0 = current }
    }

    /// Gives the buffer back the size the kernel had tuned it to, before a response that is
    /// not a hit is written. Call from the response's task; it reaches the event loop before
    /// anything the task writes after it.
    func restoreForOtherResponses() {
        guard let size = tuned.withLockedValue({ $0 }) else { return }
        let restore: @Sendable () -> Void = { [channel, tuned] in
            tuned.withLockedValue { $0 = nil }
            // Linux stores twice what is asked for: half the size read back restores it.
            try? channel.syncOptions?.setOption(Self.option, value: size / 2)
        }
        if channel.eventLoop.inEventLoop { restore() } else { channel.eventLoop.execute(restore) }
    }

    /// The whitespace-separated number `field` of the file at `path`, `nil` when unreadable.
    private static func number(at path: String, field: Int = 0) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        return fields.indices.contains(field) ? Int(fields[field]) : nil
    }
}

import Foundation
import NIOCore

/// The send buffer of a connection whose client runs on this machine (a player on loopback):
/// larger than the kernel tunes it to by itself, where the kernel allows that.
///
/// A cached span leaves by `sendfile`, which queues references to the page cache, not copies,
/// so a loopback connection's buffer holds little memory however large it is. A larger one
/// takes a span in fewer, larger calls, each a wake-up of the event loop less: on this
/// project's 2-core Linux machine, hits of 8 MiB cost the server 0.1–0.3 ms of CPU less each,
/// and hits of 256 MiB 8–13 ms less (BENCHMARKS.md, "A local client's send buffer").
///
/// Linux grants twice what a socket asks for, up to twice `net.core.wmem_max`, and setting the
/// size turns its own tuning off for that socket; the tuning grows a buffer up to the third
/// value of `net.ipv4.tcp_wmem`. So the size is asked for only where the grant is more than the
/// tuning would reach: with the usual `wmem_max` of 208 KiB asking would shrink the buffer.
/// Remote clients keep the kernel's tuning, which follows their link: a fixed large buffer
/// would only hold more of a span for a slow one. Other platforms keep their own sizes.
///
/// A response counts as sent what the kernel took, as nginx's `$body_bytes_sent` does: a local
/// client that reads a little of a hit and leaves is counted up to the buffer's size beyond
/// what it read (``FileRegionSender``'s parts), where the tuned buffer counted up to 4 MiB.
enum LocalClientSendBuffer {
    /// The size asked for.
    static let requested = 4 << 20

    /// The size to ask for on this machine, `nil` where asking would not enlarge the buffer.
    static let size: Int? = {
        #if os(Linux)
        size(wmemMax: Self.number(at: "/proc/sys/net/core/wmem_max"),
             tunedMax: Self.number(at: "/proc/sys/net/ipv4/tcp_wmem", field: 2))
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

    /// Enlarges the send buffer of `channel`, an accepted connection, when its client is on
    /// this machine and ``size`` is set. Call on the channel's event loop. A refusal leaves the
    /// kernel's size: the buffer's size is an optimisation, never a condition.
    static func apply(to channel: any Channel) {
        guard let size, let peer = channel.remoteAddress, LoopbackAddress.isLoopback(peer) else { return }
        try? channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: size)
    }

    /// The whitespace-separated number `field` of the file at `path`, `nil` when unreadable.
    private static func number(at path: String, field: Int = 0) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        return fields.indices.contains(field) ? Int(fields[field]) : nil
    }
}

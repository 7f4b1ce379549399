import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a host to listen on, or a client's address, is reachable from this machine only.
enum LoopbackAddress {
    /// `host` is a loopback address (`127.0.0.0/8`, `::1`), or a name every address of which is
    /// one; a name that does not resolve is not loopback.
    static func isLoopback(_ host: String) -> Bool {
        let addresses = resolve(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        return !addresses.isEmpty && addresses.allSatisfy(isLoopback(address:))
    }

    /// `address` is a loopback address: `127.0.0.0/8`, `::1` or `::ffff:127.0.0.0/104`.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4): isLoopback(v4.address.sin_addr)
        case .v6(let v6): isLoopback(v6.address.sin6_addr)
        case .unixDomainSocket: false
        }
    }

    private static func isLoopback(address: sockaddr_storage) -> Bool {
        var address = address
        let family = Int32(address.ss_family)
        return withUnsafeBytes(of: &address) { raw in
            switch family {
            case AF_INET: isLoopback(raw.load(as: sockaddr_in.self).sin_addr)
            case AF_INET6: isLoopback(raw.load(as: sockaddr_in6.self).sin6_addr)
            default: false
            }
        }
    }

    private static func isLoopback(_ address: in_addr) -> Bool {
        UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    private static func isLoopback(_ address: in6_addr) -> Bool {
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        let isMappedV4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return bytes == [UInt8](repeating: 0, count: 15) + [1] || (isMappedV4 && bytes[12] == 127)
    }

    private static func resolve(_ host: String) -> [sockaddr_storage] {
        var hints = addrinfo()
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [sockaddr_storage] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
                }
                addresses.append(storage)
            }
            next = entry.pointee.ai_next
        }
        return addresses
    }
}

import Foundation

/// Reads big-endian fields from bytes in memory, failing with ``ContainerError/truncated(_:)``
/// instead of trapping when the bytes run out.
struct BinaryCursor {
    let data: Data
    /// The offset of the next read, from the start of `data`.
    var position: Int
    /// What the bytes are, for error messages.
    let context: String

    init(_ data: Data, at position: Int = 0, context: String) {
        self.data = data
        self.position = position
        self.context = context
    }

    var remaining: Int { data.count - position }

    mutating func skip(_ count: Int) throws(ContainerError) {
        try require(count)
        position += count
    }

    mutating func uint8() throws(ContainerError) -> UInt8 {
        UInt8(try integer(bytes: 1))
    }

    mutating func uint16() throws(ContainerError) -> UInt16 {
        UInt16(try integer(bytes: 2))
    }

    mutating func uint32() throws(ContainerError) -> UInt32 {
        UInt32(try integer(bytes: 4))
    }

    mutating func uint64() throws(ContainerError) -> UInt64 {
        try integer(bytes: 8)
    }

    /// An unsigned integer of 1 to 8 bytes.
    mutating func integer(bytes count: Int) throws(ContainerError) -> UInt64 {
        try require(count)
        var value: UInt64 = 0
        let start = data.startIndex + position
        for index in start..<start + count { value = value << 8 | UInt64(data[index]) }
        position += count
        return value
    }

    mutating func fourCC() throws(ContainerError) -> String {
        try require(4)
        let start = data.startIndex + position
        position += 4
        return String(decoding: data[start..<start + 4], as: UTF8.self)
    }

    /// Checks that `count` more bytes are there.
    func require(_ count: Int) throws(ContainerError) {
        guard count >= 0, count <= remaining else {
            throw .truncated("\(context) needs \(count) bytes at \(position), has \(max(remaining, 0))")
        }
    }
}

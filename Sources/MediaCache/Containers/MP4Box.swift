import Foundation

/// The header of an ISO base media file format box (MP4, MOV, M4A): its type and extent.
struct MP4Box: Hashable, Sendable {
    /// The four-character type, such as `moov`.
    var type: String
    /// Where the box lies, header included, relative to what it was parsed from.
    var range: ByteRange
    /// The header's length: 8, or 16 with a 64-bit size.
    var headerLength: Int

    /// Where the payload lies.
    var payload: ByteRange { ByteRange(range.lowerBound + Int64(headerLength), range.upperBound) }

    /// Parses the box header at the cursor, for a box that may extend to `limit`; a size of 0
    /// means "to the limit".
    static func header(_ cursor: inout BinaryCursor, offset: Int64, limit: Int64) throws(ContainerError) -> MP4Box {
        let size32 = try cursor.uint32()
        let type = try cursor.fourCC()
        guard type.utf8.count == 4, type.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .malformed("box at \(offset) has no printable type; not an MP4")
        }
        var headerLength = 8
        let size: Int64
        switch size32 {
        case 0:
            size = limit - offset
        case 1:
            let size64 = try cursor.uint64()
            guard size64 <= UInt64(Int64.max) else { throw .malformed("'\(type)' box at \(offset) has size \(size64)") }
            headerLength = 16
            size = Int64(size64)
        default:
            size = Int64(size32)
        }
        guard size >= Int64(headerLength) else {
            throw .malformed("'\(type)' box at \(offset) has size \(size), smaller than its header")
        }
        guard offset + size <= limit else {
            throw .truncated("'\(type)' box at \(offset) of \(size) bytes ends beyond \(limit)")
        }
        return MP4Box(type: type, range: ByteRange(offset: offset, length: size), headerLength: headerLength)
    }

    /// The boxes inside `data`, a box payload held in memory, in order.
    static func children(of data: Data, context: String) throws(ContainerError) -> [(box: MP4Box, payload: Data)] {
        var result: [(box: MP4Box, payload: Data)] = []
        var cursor = BinaryCursor(data, context: context)
        while cursor.remaining > 0 {
            let offset = Int64(cursor.position)
            let box = try header(&cursor, offset: offset, limit: Int64(data.count))
            let start = data.startIndex + Int(box.payload.lowerBound)
            result.append((box, data[start..<data.startIndex + Int(box.range.upperBound)]))
            cursor.position = Int(box.range.upperBound)
        }
        return result
    }

    /// The payload of the first child of `type` inside `data`, when there is one.
    static func child(_ type: String, in data: Data, context: String) throws(ContainerError) -> Data? {
        try children(of: data, context: context).first { $0.box.type == type }?.payload
    }

    /// The payload of the child at the end of `path`, such as `["mdia", "minf", "stbl"]`.
    static func descendant(_ path: [String], in data: Data, context: String) throws(ContainerError) -> Data? {
        var current = data
        for type in path {
            guard let next = try child(type, in: current, context: context) else { return nil }
            current = next
        }
        return current
    }
}

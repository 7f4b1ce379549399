import Foundation
import MediaCache
import MediaCacheServer

/// The range-planning laws: for any `Range` and `If-Range` header and any resource, the plan
/// is `200` for the whole resource, `206` for bytes inside it with a `Content-Range` and
/// `Content-Length` that say exactly those bytes, or `416` naming the length.
///
/// Input lines: the `Range` value, the `If-Range` value (empty for none), the resource's length
/// in bytes, its entity tag, its `Last-Modified`.
enum RangePlanFuzzing {
    static func check(_ data: Data) -> FuzzFailure? {
        var input = FuzzInput(data)
        let range = input.next()
        let ifRange = input.nextNonEmpty()
        let total = input.next().flatMap { Int64($0) }.map { max($0, 0) }
        let info = ContentInfo(totalLength: total, etag: input.nextNonEmpty(), lastModified: input.nextNonEmpty())
        let plan = RangeResponsePlan(range: range, ifRange: ifRange, info: info)
        let described = "Range \(range ?? "none"), If-Range \(ifRange ?? "none"), length \(total.map(String.init) ?? "unknown")"

        switch plan.status {
        case 200:
            guard plan.bytes == ByteRequest(offset: 0), plan.contentRange == nil, plan.contentLength == total else {
                return FuzzFailure("\(described): 200 with \(plan)")
            }
        case 206:
            guard let total, let bytes = plan.bytes, bytes.offset < total else {
                return FuzzFailure("\(described): 206 outside the resource: \(plan)")
            }
            let last = bytes.end.map { $0 - 1 } ?? total - 1
            guard last < total, last >= bytes.offset,
                plan.contentLength == last - bytes.offset + 1,
                plan.contentRange == "bytes \(bytes.offset)-\(last)/\(total)"
            else {
                return FuzzFailure("\(described): 206 that does not say its bytes: \(plan)")
            }
        case 416:
            guard let total, plan.bytes == nil, plan.contentRange == "bytes */\(total)" else {
                return FuzzFailure("\(described): 416 with \(plan)")
            }
        default:
            return FuzzFailure("\(described): status \(plan.status)")
        }
        return nil
    }
}

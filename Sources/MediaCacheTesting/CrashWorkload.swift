import Crypto
import Foundation
import MediaCache

/// The workload of the crash test: a few resources whose versions change now and then,
/// written with ``TestPattern`` bytes so that any byte the index claims can be checked.
package enum CrashWorkload {
    /// The resources written.
    package static let names = (0..<4).map { "resource\($0).bin" }
    /// The length of every resource.
    package static let length: Int64 = 4 << 20

    /// The encryption of the encrypted crash test: a fixed key, so that the writer and the
    /// checking store agree.
    package static var encryption: StoreEncryption {
        guard let encryption = try? StoreEncryption(key: SymmetricKey(data: Data(repeating: 0x3c, count: 32))) else {
            preconditionFailure("a 32-byte key is a valid key")
        }
        return encryption
    }

    /// The environment variable that makes the crash writer encrypt its store (`1`).
    package static let encryptionVariable = "MEDIACACHE_CRASH_ENCRYPTED"

    /// The URL of resource `name`.
    package static func url(_ name: String) -> URL {
        URL(string: "https://crash.test/\(name)")!
    }

    /// The content information of version `version` of a resource.
    package static func contentInfo(version: Int) -> ContentInfo {
        ContentInfo(totalLength: length, mimeType: "application/octet-stream", etag: "\"v\(version)\"")
    }

    /// The version named by stored content information.
    package static func version(of info: ContentInfo) -> Int? {
        info.etag.flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\"v"))) }
    }

    /// The pattern seed of version `version` of resource `name`.
    package static func seed(_ name: String, version: Int) -> UInt64 {
        TestPattern.seed(name, version: Int64(version))
    }

    /// What a check of a reopened store found.
    package struct Verification: Sendable {
        /// Bytes the index claims that were compared with what was written.
        package var verifiedBytes: Int64 = 0
        /// Descriptions of claimed ranges whose bytes differ from what was written.
        package var mismatches: [String] = []
    }

    /// Reads every byte the store claims and compares it with the pattern of its version.
    package static func verify(_ store: MediaStore) throws -> Verification {
        var result = Verification()
        for name in names {
            guard let record = try store.record(for: store.key(for: url(name))) else { continue }
            guard let version = version(of: record.contentInfo) else {
                result.mismatches.append("\(name): unreadable version \(String(describing: record.contentInfo.etag))")
                continue
            }
            for range in record.available.ranges {
                let stored = try store.read(range, from: record.key)
                let expected = TestPattern.data(
                    offset: range.lowerBound, length: Int(range.length),
                    seed: seed(name, version: version))
                if stored != expected { result.mismatches.append("\(name) v\(version) \(range)") }
                result.verifiedBytes += range.length
            }
        }
        return result
    }
}

// Writes pattern bytes into a store until it is killed; the crash tests kill it with SIGKILL at
// random moments and check the store it leaves behind.
//
// Usage: MediaCacheCrashWriter CACHE_DIR SEED [uncommitted]
//
// By default it commits often and changes versions now and then. With `uncommitted` it never
// commits, keeps versions, and prints `wrote NAME VERSION OFFSET LENGTH` after each write, so
// that a test can check that every announced write survives the kill. With
// MEDIACACHE_CRASH_ENCRYPTED=1 in its environment it encrypts the store with CrashWorkload's key.
import Foundation
import MediaCache
import MediaCacheTesting

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let seed = UInt64(arguments[2]),
    arguments.count == 3 || arguments[3] == "uncommitted"
else {
    FileHandle.standardError.write(Data("usage: MediaCacheCrashWriter CACHE_DIR SEED [uncommitted]\n".utf8))
    exit(64)
}
let commits = arguments.count == 3

var random = SplitMix64(seed: seed)
var configuration = MediaStore.Configuration()
configuration.eviction = .unlimited
configuration.commitBatchBytes = commits ? 256 << 10 : .max
configuration.commitInterval = commits ? .milliseconds(20) : .seconds(3600)
configuration.logger.logLevel = .warning
if ProcessInfo.processInfo.environment[CrashWorkload.encryptionVariable] == "1" {
    configuration.encryption = CrashWorkload.encryption
}
let store = try MediaStore.open(at: arguments[1], configuration: configuration)
var announced = false

while true {
    let name = CrashWorkload.names[Int(random.next() % UInt64(CrashWorkload.names.count))]
    let url = CrashWorkload.url(name)
    let record = try store.record(for: store.key(for: url))
    var version = record.flatMap { CrashWorkload.version(of: $0.contentInfo) } ?? 0
    if record == nil || (commits && random.next() % 100 == 0) {
        version += 1
    }
    let generation = try store.setContentInfo(CrashWorkload.contentInfo(version: version), for: url)
    let length = Int64(random.next() % (128 << 10)) + 1
    let offset = Int64(random.next() % UInt64(CrashWorkload.length - length))
    let bytes = TestPattern.data(offset: offset, length: Int(length), seed: CrashWorkload.seed(name, version: version))
    try store.write(bytes, at: offset, to: store.key(for: url), generation: generation)
    if !commits {
        FileHandle.standardOutput.write(Data("wrote \(name) \(version) \(offset) \(length)\n".utf8))
    } else if random.next() % 10 == 0 {
        try store.commit()
        if !announced {
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            announced = true
        }
    }
}

// Writes and commits pattern bytes into a store until it is killed; the crash test kills it
// with SIGKILL at random moments and checks the store it leaves behind.
//
// Usage: MediaCacheCrashWriter CACHE_DIR SEED
import Foundation
import MediaCache
import MediaCacheTesting

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: MediaCacheCrashWriter CACHE_DIR SEED\n".utf8))
    exit(64)
}

var random = SplitMix64(seed: seed)
var configuration = StoreConfiguration()
configuration.eviction = .unlimited
configuration.commitBatchBytes = 256 << 10
configuration.commitInterval = .milliseconds(20)
configuration.logger.logLevel = .warning
let store = try MediaStore.open(at: arguments[1], configuration: configuration)
var announced = false

while true {
    let name = CrashWorkload.names[Int(random.next() % UInt64(CrashWorkload.names.count))]
    let url = CrashWorkload.url(name)
    let record = try store.record(for: store.key(for: url))
    var version = record.flatMap { CrashWorkload.version(of: $0.contentInfo) } ?? 0
    if record == nil || random.next() % 100 == 0 {
        version += 1
    }
    let generation = try store.setContentInfo(CrashWorkload.contentInfo(version: version), for: url)
    let length = Int64(random.next() % (128 << 10)) + 1
    let offset = Int64(random.next() % UInt64(CrashWorkload.length - length))
    let bytes = TestPattern.data(offset: offset, length: Int(length), seed: CrashWorkload.seed(name, version: version))
    try store.write(bytes, at: offset, to: store.key(for: url), generation: generation)
    if random.next() % 10 == 0 {
        try store.commit()
        if !announced {
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            announced = true
        }
    }
}

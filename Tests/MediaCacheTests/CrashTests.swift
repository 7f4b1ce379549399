import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// Kills a writing process with SIGKILL at random moments and checks that every byte the
/// reopened index claims is exactly what was written for that version, and that nothing
/// written is lost for want of a commit.
///
/// `MEDIACACHE_CRASH_CYCLES` raises the number of cycles (`scripts/crash-soak` runs hundreds).
@Suite(.timeLimit(.minutes(2))) struct CrashTests {
    /// Encrypted, only sealed blocks may be claimed, and each must open and hold what was written.
    @Test(.timeLimit(.minutes(10)), arguments: [false, true])
    func theIndexNeverClaimsBytesThatWereNotWritten(encrypted: Bool) throws {
        let cycles = ProcessInfo.processInfo.environment["MEDIACACHE_CRASH_CYCLES"].flatMap(Int.init) ?? 20
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = BuiltProducts.executable(named: "MediaCacheCrashWriter")
        var verified: Int64 = 0
        var generator = SystemRandomNumberGenerator()

        for cycle in 1...cycles {
            let process = try ChildProcess.spawn(
                path: writer.path, [directory.path, "\(cycle)"],
                environment: encrypted ? [CrashWorkload.encryptionVariable: "1"] : [:],
                capturingOutput: true)
            let announcement = process.readAvailable()
            try #require(
                String(decoding: announcement, as: UTF8.self).hasPrefix("ready"),
                "the writer did not start (cycle \(cycle))")
            usleep(UInt32.random(in: 0...150_000, using: &generator))
            process.send(SIGKILL)
            #expect(process.waitForExit() == 128 + SIGKILL, "the writer exited by itself (cycle \(cycle))")

            var configuration = Self.configuration
            if encrypted { configuration.encryption = CrashWorkload.encryption }
            let store = try MediaStore.open(at: directory.path, configuration: configuration)
            let result = try CrashWorkload.verify(store)
            try store.close()
            #expect(result.mismatches.isEmpty, "cycle \(cycle): \(result.mismatches.prefix(5))")
            verified += result.verifiedBytes
        }
        #expect(verified > 0, "no committed bytes were ever checked")
    }

    @Test(.timeLimit(.minutes(5)))
    func bytesWrittenButNeverCommittedSurviveAKill() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = BuiltProducts.executable(named: "MediaCacheCrashWriter")
        var generator = SystemRandomNumberGenerator()

        for cycle in 1...10 {
            let process = try ChildProcess.spawn(
                path: writer.path, [directory.path, "\(cycle)", "uncommitted"],
                capturingOutput: true)
            var output = Data()
            let announcements = Int.random(in: 1...200, using: &generator)
            while output.count(where: { $0 == UInt8(ascii: "\n") }) < announcements {
                let chunk = process.readAvailable()
                if chunk.isEmpty { break }
                output.append(chunk)
            }
            process.send(SIGKILL)
            #expect(process.waitForExit() == 128 + SIGKILL, "the writer exited by itself (cycle \(cycle))")
            output.append(process.readToEnd())
            let writes = String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ") }
            try #require(writes.count >= announcements, "the writer announced too little (cycle \(cycle))")

            let store = try MediaStore.open(at: directory.path, configuration: Self.configuration)
            let result = try CrashWorkload.verify(store)
            var lost: [String] = []
            for write in writes {
                let url = CrashWorkload.url(String(write[1]))
                let range = ByteRange(offset: Int64(write[3])!, length: Int64(write[4])!)
                let available = try store.availableRanges(for: store.key(for: url))
                if !available.contains(range) { lost.append("\(write[1]) \(range)") }
            }
            try store.close()
            #expect(result.mismatches.isEmpty, "cycle \(cycle): \(result.mismatches.prefix(5))")
            #expect(lost.count == 0, "cycle \(cycle): \(lost.count) of \(writes.count) writes lost: \(lost.prefix(5))")
        }
    }

    static var configuration: MediaStore.Configuration {
        var configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        return configuration
    }
}

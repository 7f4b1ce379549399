import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// Kills a writing process with SIGKILL at random moments and checks that every byte the
/// reopened index claims is exactly what was written for that version.
///
/// `MEDIACACHE_CRASH_CYCLES` raises the number of cycles (`scripts/crash-soak` runs hundreds).
@Suite struct CrashTests {
    @Test(.timeLimit(.minutes(10)))
    func theIndexNeverClaimsBytesThatWereNotWritten() throws {
        let cycles = ProcessInfo.processInfo.environment["MEDIACACHE_CRASH_CYCLES"].flatMap(Int.init) ?? 20
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = BuiltProducts.executable(named: "MediaCacheCrashWriter")
        var verified: Int64 = 0
        var generator = SystemRandomNumberGenerator()

        for cycle in 1...cycles {
            let process = try ChildProcess.spawn(path: writer.path, [directory.path, "\(cycle)"], capturingOutput: true)
            let announcement = process.readAvailable()
            try #require(String(decoding: announcement, as: UTF8.self).hasPrefix("ready"),
                         "the writer did not start (cycle \(cycle))")
            usleep(UInt32.random(in: 0...150_000, using: &generator))
            process.send(SIGKILL)
            #expect(process.waitForExit() == 128 + SIGKILL, "the writer exited by itself (cycle \(cycle))")

            let store = try MediaStore.open(at: directory.path, configuration: Self.configuration)
            let result = try CrashWorkload.verify(store)
            try store.close()
            #expect(result.mismatches.isEmpty, "cycle \(cycle): \(result.mismatches.prefix(5))")
            verified += result.verifiedBytes
        }
        #expect(verified > 0, "no committed bytes were ever checked")
    }

    static var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.eviction = .unlimited
        return configuration
    }
}

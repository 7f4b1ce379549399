import Foundation
import MediaCacheFuzzing
import Testing

/// Every fuzz target keeps its laws over its seed corpus and over every input that once broke
/// one (`Fuzz/regressions`), so a regression fails here without the fuzzing build.
@Suite(.timeLimit(.minutes(2))) struct FuzzCorpusTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func theSeedCorpusKeepsTheLaws(_ target: FuzzTarget) async throws {
        let seeds = Self.inputs("corpus", target)
        #expect(seeds.count >= 3, "Fuzz/corpus/\(target.rawValue) holds \(seeds.count) seeds")
        for seed in seeds {
            let failure = await target.check(try Data(contentsOf: seed))
            #expect(failure == nil, "\(seed.lastPathComponent): \(failure?.description ?? "")")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyPastFindingKeepsTheLaws(_ target: FuzzTarget) async throws {
        for input in Self.inputs("regressions", target) {
            let failure = await target.check(try Data(contentsOf: input))
            #expect(failure == nil, "\(input.lastPathComponent): \(failure?.description ?? "")")
        }
    }
}

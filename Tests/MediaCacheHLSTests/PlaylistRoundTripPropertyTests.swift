import Foundation
import PropertyBased
import Testing
@testable import MediaCacheHLS

/// The attribute-list grammar and the whole playlist survive write → parse unchanged, for
/// generated lists and playlists of every kind of line.
@Suite(.timeLimit(.minutes(2))) struct PlaylistRoundTripPropertyTests {
    static let nameCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
    static let bareCharacters = Array("abcxyzABC0123456789.-_@/:x")
    static let quotedCharacters = Array("abc XYZ 0123,./:;=@-_?&%")

    static func text(_ characters: [Character], _ count: ClosedRange<Int>) -> Generator<String, some Sequence & SendableMetatype> {
        Gen.int(in: 0...(characters.count - 1)).array(of: count).map { String($0.map { characters[$0] }) }
    }

    static var attribute: Generator<AttributeList.Attribute, some Sequence & SendableMetatype> {
        zip(text(nameCharacters, 1...12), Gen.bool, text(quotedCharacters, 0...20), text(bareCharacters, 1...20))
            .map { name, quoted, quotedValue, bareValue in
                AttributeList.Attribute(name, quoted ? quotedValue : bareValue, isQuoted: quoted)
            }
    }

    static var line: Generator<Playlist.Line, some Sequence & SendableMetatype> {
        zip(Gen.int(in: 0...4), attribute.array(of: 1...6), text(bareCharacters, 1...30), text(nameCharacters, 1...10))
            .map { kind, attributes, word, name -> Playlist.Line in
                switch kind {
                case 0: .tag(Tag("EXT-X-KEY", .attributes(AttributeList(attributes))))
                case 1: .tag(Tag("EXT-X-TEST-\(name)", .text(word)))
                case 2: .uri(word.hasPrefix("#") ? "a" + word : word)
                case 3: .comment(" " + word)
                default: .blank
                }
            }
    }

    @Test func attributeListsRoundTrip() async {
        await propertyCheck(count: 1_000, input: Self.attribute.array(of: 1...10)) { attributes in
            let list = AttributeList(attributes)
            #expect((try? AttributeList(parsing: list.text)) == list, "\(list.text)")
        }
    }

    @Test func playlistsRoundTrip() async {
        await propertyCheck(count: 500, input: Self.line.array(of: 0...40)) { lines in
            let playlist = Playlist(lines: lines)
            #expect((try? Playlist(parsing: playlist.text)) == playlist, "\(playlist.text)")
        }
    }

    @Test func randomBytesNeverCrashTheParser() async {
        await propertyCheck(count: 2_000, input: Gen.uint8(in: 0...255).array(of: 0...300), Gen.bool) { bytes, prefixed in
            let data = (prefixed ? Data("#EXTM3U\n".utf8) : Data()) + Data(bytes)
            _ = try? Playlist(parsing: data)
        }
    }
}

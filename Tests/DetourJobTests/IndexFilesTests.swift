import DetourRender
import Testing

@testable import DetourJob

/// Index files are read as strictly as trips and checked field by field: what `index` joins is
/// what a batch run wrote, never a link off the site, markup, or a count below zero.
@Suite struct IndexFilesTests {
    static let index = TripIndex(entries: [
        .init(
            source: "trips/b.json", name: "europe/b", status: .written, title: "B <&> \"trip\" 東京",
            firstDay: "2026-12-01", lastDay: "2026-12-05", stays: 1, warnings: 2,
            reports: [
                .init(format: .output(.html), file: "europe/b.html"),
                .init(format: .output(.markdown), file: "europe/b.md"),
            ]),
        .init(
            source: "trips/a b#1.json", name: "a b#1", status: .invalid,
            firstError: "1:11: error: title: must be a string [wrong-type]"),
        .init(source: "gone.json", name: "gone", status: .unreadable, firstError: "error: cannot read the trip"),
        .init(source: "full.json", name: "full", status: .failed, title: "F", warnings: 0),
    ])

    @Test func whatABatchRunWritesReadsBack() throws {
        #expect(try IndexFiles.read(Array(Self.index.json().utf8)) == Self.index.entries)
    }

    /// One trip of an otherwise good index, with one member changed.
    static func tampered(_ member: String) -> [UInt8] {
        let trip = [
            #""source": "t.json""#, #""name": "t""#, #""status": "written""#, #""title": "T""#,
            #""first_day": "2026-12-01""#, #""last_day": "2026-12-05""#, #""stays": 1"#, #""warnings": 0"#,
            #""first_error": null"#, #""reports": [{"format": "html", "file": "t.html"}]"#,
        ]
        let key = member.split(separator: ":").first.map(String.init) ?? ""
        let members =
            trip.map { $0.hasPrefix(key + ":") ? member : $0 }
            + (trip.contains { $0.hasPrefix(key + ":") } ? [] : [member])
        return Array(
            #"{"format": "detour-report-index/1", "summary": "", "trips": [{\#(members.joined(separator: ", "))}]}"#
                .utf8)
    }

    @Test func theUntamperedTripReads() throws {
        #expect(try IndexFiles.read(Self.tampered(#""title": "T""#)).map(\.name) == ["t"])
        // A first day without a last, and the other way round, are days enough.
        #expect(try IndexFiles.read(Self.tampered(#""last_day": null"#)).first?.firstDay == "2026-12-01")
        #expect(try IndexFiles.read(Self.tampered(#""first_day": null"#)).first?.lastDay == "2026-12-05")
    }

    @Test(arguments: [
        (#""reports": [{"format": "html", "file": "//evil.example/x.html"}]"#, "not NAME.html"),
        (#""reports": [{"format": "html", "file": "u.html"}]"#, "not NAME.html"),
        (#""reports": [{"format": "<b>x</b>", "file": "t.html"}]"#, "unknown report format"),
        (#""reports": [{"format": "html", "file": "t.html", "href": "x"}]"#, "unknown key \"href\""),
        (#""name": "../t""#, "not a relative path"),
        (#""name": "/t""#, "not a relative path"),
        (#""name": "a\\b""#, "not a relative path"),
        (#""name": "javascript:x""#, "not a relative path"),
        (#""status": "hacked""#, "unknown status"),
        (#""status": "valid""#, "unknown status"),
        (#""source": "t\u001b[2J.json""#, "control character"),
        (#""first_day": "<i>2026</i>""#, "must be days"),
        (#""last_day": "2026-11-30""#, "last day is before its first"),
        (#""warnings": -1"#, "negative"),
        (#""stays": -3"#, "negative"),
        (#""stays": 1.5"#, "whole number"),
        (#""warnings": "2""#, "must be a whole number"),
        (#""title": 3"#, "must be a string or null"),
        (#""title": "T", "title": "U""#, "duplicate key"),
        (#""extra": 1"#, "unknown key \"extra\""),
    ])
    func aTamperedIndexIsRefusedSayingWhy(member: String, reason: String) {
        #expect {
            _ = try IndexFiles.read(Self.tampered(member))
        } throws: { error in
            (error as? IndexFiles.Failure)?.message.contains(reason) == true
        }
    }

    @Test(arguments: [
        (#"{"format": "detour-report-index/1", "trips": [],}"#, "trailing comma", 1, 49),
        (#"{"format": "detour-report-index/2", "trips": []}"#, "not detour-report-index/1", nil, nil),
        (#"{"trips": []}"#, "needs \"format\"", 1, 1),
        (#"[]"#, "an index must be an object", 1, 1),
        // A value that is not JSON is its syntax error, not a kind of value.
        (#"{"format": "detour-report-index/1", "trips": tru}"#, "a value was expected", 1, 46),
        (
            "{\"format\": \"detour-report-index/1\", \"trips\": [{\"name\": \"t\"}]}",
            "needs \"source\", \"status\", \"warnings\", \"reports\"", 1, 47
        ),
    ])
    func aFileThatIsNotAnIndexSaysWhereItGoesWrong(text: String, reason: String, line: Int?, column: Int?) {
        #expect {
            _ = try IndexFiles.read(Array(text.utf8))
        } throws: { error in
            guard let failure = error as? IndexFiles.Failure else { return false }
            return failure.message.contains(reason) && failure.line == line && failure.column == column
        }
    }
}

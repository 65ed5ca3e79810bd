import DetourCore
import DetourIO
import Testing

/// A value that goes with a partner (a cost's amount and its currency, a point's latitude and
/// longitude, a stay's arrival and departure) is judged alike when its partner is left out,
/// whether the trip is JSON or GPX: the readers only map the shape, so the same hole gets the
/// same diagnostics.
@Suite struct PartnerAttributeTwinTests {
    /// A change to a template: `old`, which must occur exactly once, becomes `new`.
    struct Edit: Sendable {
        var old: String
        var new: String

        /// Leaves `text` out.
        static func cut(_ text: String) -> Edit { Edit(old: text, new: "") }

        /// Writes `new` in place of `old`, for a partner whose text alone is not unique.
        static func replace(_ old: String, with new: String) -> Edit { Edit(old: old, new: new) }

        /// `template` with the edit made, or `nil` unless `old` occurs exactly once: an edit that
        /// missed, or hit twice, would make the twins differ from what the row says.
        func applied(to template: String) -> String? {
            let parts = template.components(separatedBy: old)
            return parts.count == 2 ? parts.joined(separator: new) : nil
        }
    }

    /// One partner left out, in a JSON trip and in its GPX twin.
    struct Row: Sendable, CustomTestStringConvertible {
        /// The pair, as GPX spells it.
        var pair: String
        /// The partner that is left out, the other one kept.
        var dropped: String
        var json: Edit
        var gpx: Edit

        var testDescription: String { "\(pair): \(dropped) left out" }
    }

    /// A small valid trip holding every pair: a traveller with a name, the trip's currency, a
    /// rate and a budget, a stay with its own budget, and a detour of two located tasks, one
    /// with a route for its path and one with a track.
    ///
    /// Each value a row edits is written once, so that an edit cannot land on the wrong partner.
    static let jsonTemplate = """
        {
          "title": "Partners",
          "traveler": "Ana Silva <ana@example.org>",
          "currency": "EUR", "rates": {"SEK": 0.0871},
          "budget": {"amount": 600, "currency": "EUR"},
          "destinations": [
            {"name": "Lisbon", "location": {"lat": 38.7223, "lon": -9.1393},
             "arrival": "2026-12-01", "departure": "2026-12-05",
             "budget": {"amount": 200, "currency": "EUR"},
             "detours": [
               {"tasks": [
                 {"name": "Ride Tram 28", "duration": "PT1H30M", "cost": {"amount": 3.10, "currency": "EUR"},
                  "location": {"lat": 38.7139, "lon": -9.1334},
                  "path": [{"lat": 38.7222, "lon": -9.1392}, {"lat": 38.7140, "lon": -9.1335}]},
                 {"name": "Walk the Alfama", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"},
                  "location": {"lat": 38.7118, "lon": -9.1300},
                  "path": [{"lat": 38.7221, "lon": -9.1391}, {"lat": 38.7119, "lon": -9.1301}]}
               ]}
             ]}
          ]
        }
        """

    /// The same trip in the GPX mapping.
    ///
    /// The path elements come first in their route and track, since the reader keeps a route's
    /// points only once it knows which task they belong to.
    static let gpxTemplate = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="partner twins" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:dr="urn:detour-report:gpx:1">
          <metadata>
            <name>Partners</name>
            <author><name>Ana Silva</name><email id="ana" domain="example.org"/></author>
            <extensions>
              <dr:trip currency="EUR">
                <dr:rate currency="SEK" value="0.0871"/>
                <dr:budget amount="600" currency="EUR"/>
              </dr:trip>
            </extensions>
          </metadata>
          <wpt lat="38.7223" lon="-9.1393">
            <name>Lisbon</name>
            <extensions>
              <dr:stay id="lisbon" arrival="2026-12-01" departure="2026-12-05">
                <dr:budget amount="200" currency="EUR"/>
              </dr:stay>
            </extensions>
          </wpt>
          <wpt lat="38.7139" lon="-9.1334">
            <name>Ride Tram 28</name>
            <extensions>
              <dr:task destination="lisbon" detour="tram-or-walk" duration="PT1H30M" cost="3.10" currency="EUR"/>
            </extensions>
          </wpt>
          <wpt lat="38.7118" lon="-9.1300">
            <name>Walk the Alfama</name>
            <extensions>
              <dr:task destination="lisbon" detour="tram-or-walk" duration="2h" cost="0" currency="EUR"/>
            </extensions>
          </wpt>
          <rte>
            <extensions><dr:path destination="lisbon" task="Ride Tram 28"/></extensions>
            <rtept lat="38.7222" lon="-9.1392"/><rtept lat="38.7140" lon="-9.1335"/>
          </rte>
          <trk>
            <extensions><dr:path destination="lisbon" task="Walk the Alfama"/></extensions>
            <trkseg><trkpt lat="38.7221" lon="-9.1391"/><trkpt lat="38.7119" lon="-9.1301"/></trkseg>
          </trk>
        </gpx>
        """

    /// Every pair of partners that both formats can spell, each partner left out in turn.
    ///
    /// Pairs only GPX has are not here, as JSON has no spelling of the hole: `dr:rate currency=`
    /// and `value=` (a JSON rate is a key and its value), `dr:task destination=` and `detour=`,
    /// and `dr:path destination=` and `task=` (JSON nests a task in its detour and a path in its
    /// task). Nor is an `<author>` with a name and no email, since a JSON traveller's name is
    /// part of the address text and cannot stand without it.
    static let rows: [Row] = [
        Row(
            pair: "stay wpt lat/lon", dropped: "lat", json: .cut(#""lat": 38.7223, "#),
            gpx: .cut(#" lat="38.7223""#)),
        Row(
            pair: "stay wpt lat/lon", dropped: "lon", json: .cut(#", "lon": -9.1393"#),
            gpx: .cut(#" lon="-9.1393""#)),
        Row(
            pair: "task wpt lat/lon", dropped: "lat", json: .cut(#""lat": 38.7139, "#),
            gpx: .cut(#" lat="38.7139""#)),
        Row(
            pair: "task wpt lat/lon", dropped: "lon", json: .cut(#", "lon": -9.1334"#),
            gpx: .cut(#" lon="-9.1334""#)),
        Row(
            pair: "rtept lat/lon", dropped: "lat", json: .cut(#""lat": 38.7222, "#),
            gpx: .cut(#" lat="38.7222""#)),
        Row(
            pair: "rtept lat/lon", dropped: "lon", json: .cut(#", "lon": -9.1335"#),
            gpx: .cut(#" lon="-9.1335""#)),
        Row(
            pair: "trkpt lat/lon", dropped: "lat", json: .cut(#""lat": 38.7221, "#),
            gpx: .cut(#" lat="38.7221""#)),
        Row(
            pair: "trkpt lat/lon", dropped: "lon", json: .cut(#", "lon": -9.1301"#),
            gpx: .cut(#" lon="-9.1301""#)),
        Row(
            pair: "dr:stay arrival/departure", dropped: "arrival", json: .cut(#""arrival": "2026-12-01", "#),
            gpx: .cut(#" arrival="2026-12-01""#)),
        Row(
            pair: "dr:stay arrival/departure", dropped: "departure", json: .cut(#", "departure": "2026-12-05""#),
            gpx: .cut(#" departure="2026-12-05""#)),
        Row(
            pair: "dr:task cost/currency", dropped: "cost", json: .cut(#""amount": 3.10, "#),
            gpx: .cut(#" cost="3.10""#)),
        Row(
            pair: "dr:task cost/currency", dropped: "currency",
            json: .replace(#"3.10, "currency": "EUR""#, with: "3.10"),
            gpx: .replace(#"cost="3.10" currency="EUR""#, with: #"cost="3.10""#)),
        Row(
            pair: "trip dr:budget amount/currency", dropped: "amount", json: .cut(#""amount": 600, "#),
            gpx: .cut(#" amount="600""#)),
        Row(
            pair: "trip dr:budget amount/currency", dropped: "currency",
            json: .replace(#"600, "currency": "EUR""#, with: "600"),
            gpx: .replace(#"amount="600" currency="EUR""#, with: #"amount="600""#)),
        Row(
            pair: "stay dr:budget amount/currency", dropped: "amount", json: .cut(#""amount": 200, "#),
            gpx: .cut(#" amount="200""#)),
        Row(
            pair: "stay dr:budget amount/currency", dropped: "currency",
            json: .replace(#"200, "currency": "EUR""#, with: "200"),
            gpx: .replace(#"amount="200" currency="EUR""#, with: #"amount="200""#)),
        Row(
            pair: "dr:trip currency/dr:rate", dropped: "currency",
            json: .replace(#""currency": "EUR", "rates""#, with: #""rates""#),
            gpx: .replace(#"<dr:trip currency="EUR">"#, with: "<dr:trip>")),
        Row(
            pair: "dr:trip currency/dr:rate", dropped: "rate", json: .cut(#", "rates": {"SEK": 0.0871}"#),
            gpx: .cut(#"<dr:rate currency="SEK" value="0.0871"/>"#)),
        Row(
            pair: "author email id/domain", dropped: "id", json: .replace("<ana@", with: "<@"),
            gpx: .cut(#" id="ana""#)),
        Row(
            pair: "author email id/domain", dropped: "domain", json: .replace("@example.org>", with: "@>"),
            gpx: .cut(#" domain="example.org""#)),
        Row(
            pair: "author name/email", dropped: "name",
            json: .replace(#""Ana Silva <ana@example.org>""#, with: #""ana@example.org""#),
            gpx: .cut("<name>Ana Silva</name>")),
    ]

    /// What loading `text` reports: each diagnostic's code and path (its severity follows from
    /// the code; its message and line differ between the formats by design).
    static func judged(_ text: String, _ format: TripFormat) -> Set<String> {
        let outcome = TripLoader.load(Array(text.utf8), format: format)
        return Set(outcome.diagnostics.map { "\($0.code.rawValue) \($0.path ?? "-")" })
    }

    @Test(arguments: rows)
    func aPartnerLeftOutIsJudgedAlikeInJSONAndGPX(_ row: Row) throws {
        let json = try #require(row.json.applied(to: Self.jsonTemplate), "the JSON template holds \(row.json.old) once")
        let gpx = try #require(row.gpx.applied(to: Self.gpxTemplate), "the GPX template holds \(row.gpx.old) once")
        let fromJSON = Self.judged(json, .json)
        let fromGPX = Self.judged(gpx, .gpx)
        let onlyJSON = fromJSON.subtracting(fromGPX).sorted()
        let onlyGPX = fromGPX.subtracting(fromJSON).sorted()
        #expect(fromJSON == fromGPX, "only in JSON: \(onlyJSON); only in GPX: \(onlyGPX)")
    }
}

import DetourCore
import DetourIO
import Testing

/// The places `import` reads from another app's GPX and GeoJSON, in process.
@Suite struct PlacesReaderTests {
    static func places(_ text: String, geoJSON: Bool) throws -> TripImport.Places {
        switch PlacesReader.read(Array(text.utf8), kind: geoJSON ? .geoJSON : .gpx) {
        case .success(let places): return places
        case .failure(let diagnostic): throw diagnostic
        }
    }

    @Test func gpxWaypointsRoutesAndTracksInEitherVersion() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0">
            <name>Old style</name>
            <wpt lat="1" lon="2"><name>Cafe</name><cmt>Good coffee</cmt><desc>Best coffee</desc><url>https://a.example</url></wpt>
            <wpt lat="1.1" lon="2"><cmt>Only a comment</cmt></wpt>
            <wpt lat="95" lon="2"><name>Off the Earth</name></wpt>
            <rte><name>Route</name><rtept lat="1" lon="2"/><rtept lat="1.01" lon="2"/></rte>
            <trk><name>Track</name><trkseg><trkpt lat="1" lon="2"/></trkseg><trkseg><trkpt lat="1.02" lon="2"/></trkseg></trk>
            </gpx>
            """
        let places = try Self.places(gpx, geoJSON: false)
        #expect(places.title == "Old style")
        #expect(places.points.map(\.name) == ["Cafe", nil])
        #expect(places.points.map(\.description) == ["Best coffee", "Only a comment"])
        #expect(places.points.first?.link == "https://a.example")
        #expect(places.lines.map(\.name) == ["Route", "Track"])
        #expect(places.lines.map(\.points.count) == [2, 2])
        let linked = try Self.places(
            #"<gpx xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>New</name></metadata><wpt lat="1" lon="2"><link href="https://b.example"/></wpt></gpx>"#,
            geoJSON: false)
        #expect(linked.title == "New")
        #expect(linked.points.first?.link == "https://b.example")
    }

    @Test func gpxThatIsNoGPXOrNoXML() {
        #expect(throws: Diagnostic.self) { try Self.places("<kml/>", geoJSON: false) }
        #expect(throws: Diagnostic.self) { try Self.places("not xml", geoJSON: false) }
        #expect(throws: Diagnostic.self) {
            try Self.places(#"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "b">]><gpx/>"#, geoJSON: false)
        }
    }

    @Test func geoJSONFeaturesOfEveryKind() throws {
        let text = """
            {"type": "FeatureCollection", "name": "Collection", "features": [
              {"type": "Feature", "properties": {"title": "Titled", "link": "https://c.example"},
               "geometry": {"type": "Point", "coordinates": [2, 1]}},
              {"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": [[2, 1], [2.1, 1], "x"]}},
              {"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": "none"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": "none"}},
              {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[2, 1], [2, 1.1]], "x", [[2, 1.2]]]}},
              {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": 3}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [200, 1]}},
              {"type": "Feature"}
            ]}
            """
        let places = try Self.places(text, geoJSON: true)
        #expect(places.title == "Collection")
        #expect(places.points.map(\.name) == ["Titled", nil, nil])
        #expect(places.points.first?.link == "https://c.example")
        #expect(places.lines.map(\.points.count) == [0, 3, 0])
        let single = try Self.places(
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 1]}}"#, geoJSON: true)
        #expect(single.points.count == 1)
        let bare = try Self.places(#"{"type": "LineString", "coordinates": [[2, 1], [2, 1.1]]}"#, geoJSON: true)
        #expect(bare.lines.first?.points.count == 2)
        let empty = try Self.places(#"{"type": "FeatureCollection"}"#, geoJSON: true)
        #expect(empty.isEmpty)
        #expect(throws: Diagnostic.self) { try Self.places("[1, 2]", geoJSON: true) }
    }
}

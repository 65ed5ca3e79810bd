import Hummingbird

/// The files a map needs, served by detour-report itself from `/assets/`: no CDN, and no request
/// to a third party unless the person configures a tile server (``TileLayer``).
///
/// Leaflet is Debian's `libjs-leaflet` and the base map Natural Earth's country outlines, both
/// generated into `MapAssets+Data.swift` by `.ci/map-assets`, which CI runs to check them against
/// the pinned packages; `map.js` is detour-report's own. Each is sent with a strong entity tag,
/// and a browser asks again each time it loads a page (a 304 while it has the file): a server
/// upgraded with a new script is never answered by yesterday's.
enum MapAssets {
    /// One file: its bytes, type and entity tag.
    struct Asset: Sendable {
        let bytes: [UInt8]
        let type: Replies.MediaType
        let etag: String

        init(_ bytes: [UInt8], type: String) {
            self.bytes = bytes
            self.type = .other(type)
            etag = TripLibrary.entityTag(of: bytes)
        }
    }

    /// The files by the name they are served under.
    static let files: [String: Asset] = [
        "leaflet-1.7.1.js": Asset(Array(leafletScript.utf8), type: "text/javascript; charset=utf-8"),
        "leaflet-1.7.1.css": Asset(Array(leafletStyle.utf8), type: "text/css; charset=utf-8"),
        "countries.geojson": Asset(Array(countries.utf8), type: "application/geo+json"),
        "map.js": Asset(PackageResources.map_js, type: "text/javascript; charset=utf-8"),
    ]

    /// `GET /assets/NAME`: the file, or 304 when the browser has it.
    static func serve(_ name: String) -> Handler {
        { request, _ in
            guard let asset = files[name] else { throw Problem.notFound }
            return Replies.tagged(
                asset.bytes, etag: asset.etag, type: asset.type, request: request,
                extra: [(.cacheControl, "no-cache")])
        }
    }
}

import DetourCore
import Foundation
import ZIPFoundation

/// The places of a KML document (OGC KML 2.2), as Google My Maps, Google Earth, Organic Maps and
/// Maps.me export them, and of a KMZ: the same document in a zip.
///
/// Each `Placemark` with a `Point` is a place, its `name` and `description` (markup taken out:
/// My Maps and Organic Maps write HTML there); one with a `LineString` (or several, in a
/// `MultiGeometry`) is a way. A placemark in a `Folder` (a My Maps layer) keeps the folder's name.
/// The document's `name` is the title. Read with the same libxml2 reader, limits and refusals as
/// GPX (no DOCTYPE, no entities, no network).
enum KMLPlaces {
    /// What a KMZ may hold: a zip with more entries than this is refused unread.
    static let maxEntries = 1_000

    /// The places of the KML `bytes`, or why they cannot be read.
    static func read(_ bytes: [UInt8], limits: ReadLimits) -> Result<TripImport.Places, Diagnostic> {
        let stream: XMLStream
        switch TripGPXReader.open(BufferSource(bytes), name: "places.kml", limits: limits) {
        case .failure(let diagnostic): return .failure(diagnostic)
        case .success(let opened): stream = opened
        }
        var reading = Reading()
        let failure = PlacesReader.walk(stream, root: "kml", limits: limits) { _, name in
            reading.start(name)
        } end: { parent, name, text in
            reading.end(name, parent: parent, text: text)
        }
        if let failure { return .failure(failure) }
        return .success(reading.places)
    }

    /// The places of the KMZ `bytes`: its first `.kml` entry (`doc.kml`, by the format's rule the
    /// first), unpacked in memory to at most `limits.maxJSONBytes`; a zip that is not one, holds
    /// no KML, has more than ``maxEntries`` entries or unpacks past the limit is refused.
    static func readKMZ(_ bytes: [UInt8], limits: ReadLimits) -> Result<TripImport.Places, Diagnostic> {
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            return .failure(Diagnostic(.readFailed, "not a KMZ file: it is no zip archive"))
        }
        var entries: [Entry] = []
        for entry in archive {
            entries.append(entry)
            if entries.count > maxEntries {
                return .failure(
                    Diagnostic(.fileTooLarge, "the KMZ holds more than \(maxEntries) files; a map's export holds a few")
                )
            }
        }
        guard let document = entries.first(where: { $0.type == .file && $0.path.lowercased().hasSuffix(".kml") })
        else {
            return .failure(Diagnostic(.nothingToImport, "the KMZ holds no .kml document: nothing to import"))
        }
        let limit = limits.maxJSONBytes
        var unpacked: [UInt8] = []
        do {
            _ = try archive.extract(document, skipCRC32: false) { chunk in
                // Counted as it comes: the sizes a zip declares are the zip's word, not a bound.
                guard unpacked.count + chunk.count <= limit else { throw Unpacking.tooLarge }
                unpacked.append(contentsOf: chunk)
            }
        } catch Unpacking.tooLarge {
            return .failure(
                Diagnostic(
                    .fileTooLarge,
                    "the KMZ's \(Quoting.quoted(document.path)) unpacks to more than \(limit >> 20) MiB: not read"))
        } catch {
            return .failure(
                Diagnostic(.readFailed, "the KMZ's \(Quoting.quoted(document.path)) cannot be unpacked: \(error)"))
        }
        return read(unpacked, limits: limits)
    }

    /// Why unpacking stopped.
    enum Unpacking: Error {
        case tooLarge
    }

    /// What the reader has seen so far.
    struct Reading {
        var places = TripImport.Places(title: nil)
        /// The names of the folders the reader is in, innermost last (`nil` before its name).
        var folders: [String?] = []
        var placemark: Placemark?
        var inDocument = false

        /// A placemark being read.
        struct Placemark {
            var name: String?
            var description: String?
            var point: Result<Coordinate, TripImport.Skipped.Reason>?
            var lines: [[Coordinate]] = []
        }

        mutating func start(_ name: String) {
            switch name {
            case "Folder": folders.append(nil)
            case "Placemark": placemark = Placemark()
            default: break
            }
        }

        mutating func end(_ name: String, parent: String?, text: String) {
            switch (parent, name) {
            case ("Document", "name"), ("kml", "name"):
                if places.title == nil, !text.isEmpty { places.title = text }
            case ("Folder", "name"):
                if !folders.isEmpty { folders[folders.count - 1] = text }
            case ("Placemark", "name"): placemark?.name = text
            case ("Placemark", "description"): placemark?.description = KMLPlaces.plainText(text)
            case ("Point", "coordinates"):
                if placemark?.point == nil {
                    let tuples = KMLPlaces.tuples(text)
                    placemark?.point = PlacesReader.place(tuples.isEmpty ? nil : tuples[0], given: !text.isEmpty)
                }
            case ("LineString", "coordinates"):
                let points = KMLPlaces.tuples(text).compactMap { $0 }
                if !points.isEmpty { placemark?.lines.append(points) }
            case (_, "Folder"):
                _ = folders.popLast()
            case (_, "Placemark"):
                if let done = placemark { add(done) }
                placemark = nil
            default:
                break
            }
        }

        /// A placemark read: a place, a way, or a point skipped.
        mutating func add(_ done: Placemark) {
            let folder = folders.last ?? nil
            switch done.point {
            case .success(let location)?:
                places.points.append(
                    TripImport.Point(
                        name: done.name, description: done.description, link: nil, location: location, folder: folder))
            case .failure(let reason)?:
                places.skipped.append(TripImport.Skipped(name: done.name, reason: reason))
            case nil:
                if done.lines.isEmpty {
                    places.skipped.append(TripImport.Skipped(name: done.name, reason: .noPosition))
                } else {
                    places.lines.append(TripImport.Line(name: done.name, points: done.lines.flatMap { $0 }))
                }
            }
        }
    }

    /// KML's `coordinates`: tuples `lon,lat[,alt]` apart by white space; `nil` for a tuple that
    /// is no position.
    static func tuples(_ text: String) -> [Coordinate?] {
        text.split(whereSeparator: \.isWhitespace).map { tuple in
            let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    /// `text` with HTML's tags taken out and its white space folded: a placemark's description
    /// is often HTML (`<br>`, `<a href>`), and a task's pro is text.
    ///
    /// Tags only, by their brackets; entities were already decoded by the XML reader. Enough for
    /// the markup map apps write there; the text stays as the person wrote it.
    static func plainText(_ text: String) -> String {
        var plain = ""
        var inTag = false
        for character in text {
            switch character {
            case "<": inTag = true
            case ">" where inTag:
                inTag = false
                plain.append(" ")
            default: if !inTag { plain.append(character) }
            }
        }
        return plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

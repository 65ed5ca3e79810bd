import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import HTTPTypes
import Hummingbird

/// The app's forms: each post is one change to one trip file, made as a `PUT` makes it.
///
/// The file is read again under the folder's lock, the change is made to its draft
/// (``TripEditing``), the whole trip is validated by the same validator as `render` and a `PUT`,
/// held to the same input limit, and the file is replaced only if it is still the version read,
/// so a change made elsewhere (an editor, another tab) is never overwritten. Every error is shown
/// next to its field.
enum AppForms {
    /// The fields of the add-destination form.
    struct DestinationFields: Decodable {
        var name: String?
        var arrival: String?
        var departure: String?
        var lat: String?
        var lon: String?
        var trip: String?
        var title: String?
    }

    /// The `trip` value that asks for a new trip.
    static let newTrip = "+new"

    /// `GET /destinations/new`: the form, with `?trip=NAME` chosen.
    static func newDestination(_ request: Request, context: ServerContext) async throws -> Response {
        try context.trips().settings.places.prepare()
        let chosen = request.uri.queryParameters.get("trip") ?? ""
        return try await destinationForm(DestinationFields(trip: chosen), problems: [:], context: context, status: .ok)
    }

    /// The form with what was `typed` and the `problems` found in it, by field (`""`: the trip).
    static func destinationForm(
        _ typed: DestinationFields, problems: [String: [String]], context: ServerContext,
        status: HTTPResponse.Status
    ) async throws -> Response {
        let library = try context.trips().library
        let today = library.settings.today()
        let trips = try await library.listed("trip-titles", today: today) { found in
            found.compactMap { file, read in read?.1.trip.map { (name: file.name.text, title: $0.title) } }
        }
        let chosen = typed.trip ?? ""
        var options = trips.map { OptionModel(value: $0.name, text: $0.title, selected: $0.name == chosen) }
        options.append(
            OptionModel(value: newTrip, text: "A new trip", selected: trips.isEmpty || chosen == newTrip))
        func field(_ name: String, _ label: String, _ type: String, _ value: String?, hint: String = "")
            -> FormFieldModel
        {
            var field = FormFieldModel(
                name, label: label, type: type, value: value ?? "",
                problem: problems[name].map { $0.joined(separator: " ") })
            field.hint = hint
            field.optional = name != "arrival" && name != "departure"
            return field
        }
        let fields = [
            field("name", "Name", "text", typed.name, hint: "Left empty, the nearest town or city to the place"),
            field("arrival", "Arrival", "date", typed.arrival),
            field("departure", "Departure", "date", typed.departure),
            field("lat", "Latitude", "text", typed.lat, hint: "Decimal degrees, north positive: 38.7223"),
            field("lon", "Longitude", "text", typed.lon, hint: "Decimal degrees, east positive: -9.1393"),
        ]
        let identity = context.identity
        var page = ServerPageModel(
            title: "Add destination", chrome: ChromeModel(bar: Chrome.bar(identity)), hasBack: true)
        page.tiles = Chrome.tiles(library.settings.tiles)
        page.addDestination = DestinationFormModel(
            action: "/destinations", formField: CSRFRule.formField, formToken: identity?.formToken ?? "",
            fields: fields, trips: options,
            title: field("title", "Title of the new trip", "text", typed.title), problems: problems[""] ?? [])
        return Replies.page(page, status: status)
    }

    /// `POST /destinations`: adds the destination to the trip chosen, or to a new trip.
    static func addDestination(_ request: Request, context: ServerContext) async throws -> Response {
        var typed = try await Form.read(DestinationFields.self, from: request)
        let workspace = try context.trips()
        // A place and no name: the name of the place a person means by that point.
        if (typed.name ?? "").isEmpty, let point = point(typed.lat, typed.lon),
            let found = await workspace.settings.places.name(at: point)
        {
            typed.name = found
        }
        let stay = TripEdit.StayFields(
            name: typed.name ?? "", arrival: typed.arrival ?? "", departure: typed.departure ?? "",
            latitude: typed.lat ?? "", longitude: typed.lon ?? "")
        let edit = TripEdit.addDestination(stay)
        let choice = typed.trip ?? newTrip
        let change: Change
        if choice == newTrip {
            let title = typed.title ?? ""
            guard !title.isEmpty else {
                return try await destinationForm(
                    typed, problems: ["title": ["Give the new trip a title."]], context: context,
                    status: .unprocessableContent)
            }
            change = try await create(edit, title: title, library: workspace.library)
        } else {
            guard let name = TripName(decoded: choice) else { throw Problem.badName }
            change = try await apply(edit, to: name, library: workspace.library)
        }
        switch change {
        case .done(let name, let trip):
            let href = AppPaths.destination("\(context.tripsBase)/\(name.text)", trip.destinations.count - 1)
            return Response(status: .seeOther, headers: [.location: href, .cacheControl: "no-store"])
        case .refused(let diagnostics, let path):
            return try await destinationForm(
                typed, problems: stayProblems(diagnostics, path: path), context: context,
                status: .unprocessableContent)
        case .unreadable(let name):
            return try await destinationForm(
                typed,
                problems: [
                    "": [
                        "The trip's file \(name.text) has errors: fix them first (its page lists them), or choose another trip."
                    ]
                ], context: context, status: .conflict)
        case .changedElsewhere:
            return try await destinationForm(
                typed, problems: ["": [changedElsewhere]], context: context, status: .preconditionFailed)
        }
    }

    /// What the new-trip form sends.
    struct TripFields: Decodable {
        var title: String?
    }

    /// `GET /new-trip`: the form that makes a new, empty trip.
    static func newTripForm(_ request: Request, context: ServerContext) async throws -> Response {
        try tripForm(TripFields(), problem: nil, context: context, status: .ok)
    }

    /// The new-trip form with what was `typed`, and what is wrong with the title.
    static func tripForm(
        _ typed: TripFields, problem: String?, context: ServerContext, status: HTTPResponse.Status
    ) throws -> Response {
        let identity = context.identity
        var title = FormFieldModel("title", label: "Title", type: "text", value: typed.title ?? "", problem: problem)
        title.hint = "Its file is named after it: Lisbon in spring is lisbon-in-spring.json"
        var page = ServerPageModel(title: "New trip", chrome: ChromeModel(bar: Chrome.bar(identity)), hasBack: true)
        page.newTrip = NewTripFormModel(
            action: "/trips", formField: CSRFRule.formField, formToken: identity?.formToken ?? "", title: title)
        return Replies.page(page, status: status)
    }

    /// `POST /trips`: a new trip with no destinations yet, in a file named after its title; the
    /// person goes on to add its first destination.
    static func addTrip(_ request: Request, context: ServerContext) async throws -> Response {
        let typed = try await Form.read(TripFields.self, from: request)
        let title = TokenText.trimmed(typed.title ?? "")
        guard !title.isEmpty else {
            return try tripForm(
                typed, problem: "Give the new trip a title.", context: context, status: .unprocessableContent)
        }
        switch try await create(nil, title: title, library: try context.trips().library) {
        case .done(let name, _):
            let href = "/destinations/new?trip=\(name.text)"
            return Response(status: .seeOther, headers: [.location: href, .cacheControl: "no-store"])
        case .refused(let diagnostics, _):
            // A trip of a title and nothing else: what is wrong is the title's.
            let text = diagnostics.filter { $0.severity == .error }.map { sentence($0.message) }.joined(separator: " ")
            return try tripForm(typed, problem: text, context: context, status: .unprocessableContent)
        case .unreadable, .changedElsewhere:
            throw Problem.notFound
        }
    }

    /// A point from the text of a form's `lat` and `lon`, by the trip format's rules.
    static func point(_ lat: String?, _ lon: String?) -> Coordinate? {
        guard let lat, let lon, let latitude = try? Coordinate.LatitudeRule.parse(lat),
            let longitude = try? Coordinate.LongitudeRule.parse(lon)
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The problems of `diagnostics` by the add-destination form's field they are about: the
    /// fields of the new stay at `path`, the trip's title, and the rest (`""`).
    static func stayProblems(_ diagnostics: [Diagnostic], path: String) -> [String: [String]] {
        fieldProblems(
            diagnostics,
            fields: [
                ("\(path).name", "name"), ("\(path).arrival", "arrival"), ("\(path).departure", "departure"),
                ("\(path).location.lat", "lat"), ("\(path).location.lon", "lon"), ("\(path).location", "lat"),
                ("title", "title"),
            ])
    }

    /// The problems of `diagnostics` (errors only) by the form field each is about: `fields` pairs
    /// a diagnostic's path (or, ending in `[`, the start of its path) with a field; the rest are
    /// the page's (`""`).
    static func fieldProblems(_ diagnostics: [Diagnostic], fields: [(String, String)]) -> [String: [String]] {
        var problems: [String: [String]] = [:]
        for diagnostic in diagnostics where diagnostic.severity == .error {
            var field = ""
            if let path = diagnostic.path {
                for (written, name) in fields where written.hasSuffix("[") ? path.hasPrefix(written) : written == path {
                    field = name
                    break
                }
            }
            let text = field.isEmpty ? diagnostic.fullMessage : sentence(diagnostic.message)
            problems[field, default: []].append(text)
        }
        return problems
    }

    /// `message` as a sentence beside its field.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        return first.uppercased() + message.dropFirst() + "."
    }

    /// What became of a change to a trip.
    enum Change {
        /// Saved: the trip's name and the trip as it is now.
        case done(TripName, Trip)
        /// Not saved: the changed trip's diagnostics, and where the change's own fields are.
        case refused([Diagnostic], path: String)
        /// Not saved: the trip's file does not read as a valid trip.
        case unreadable(TripName)
        /// Not saved: the file is no longer the version the page was made of.
        case changedElsewhere
    }

    /// What the page says when the trip changed since it was made.
    static let changedElsewhere =
        "This trip changed since the page was opened (in an editor, or another tab): here it is now, "
        + "with what you typed kept. Save again to make your change to it."

    /// `edit` made to the trip `name`, written if it holds and the file has not changed since it
    /// was read (both under the folder's lock).
    static func apply(
        _ edit: TripEdit, to name: TripName, version: String? = nil, library: TripLibrary
    ) async throws -> Change {
        try await library.writing { () throws -> Change in
            let existing = library.files(of: name).map(\.0)
            // One file: a clash (a name with two) is made one again through the API.
            guard existing.count == 1, let file = existing.first else {
                throw existing.isEmpty ? Problem.notFound : Problem.clash(name)
            }
            let bytes: [UInt8]
            switch try library.store.read(file, limit: library.settings.maxInputBytes) {
            case nil: throw Problem.notFound
            case .tooLarge: throw Problem.tooLargeFile
            case .bytes(let read): bytes = read
            }
            if let version, !EntityTags.matches(version, TripLibrary.entityTag(of: bytes)) { return .changedElsewhere }
            let (outcome, path) = TripEditing.apply(
                edit, to: bytes, format: file.format, limits: library.job.options.limits)
            switch outcome {
            case .unreadable: return .unreadable(name)
            case .missing: return .changedElsewhere
            case .refused(let diagnostics): return .refused(diagnostics, path: path)
            case .changed(let trip, let changed):
                try save(changed, to: file, library: library)
                return .done(name, trip)
            }
        }
    }

    /// A new trip titled `title`, with `edit` made to it (or none: an empty trip), in a file
    /// named after the title.
    static func create(_ edit: TripEdit?, title: String, library: TripLibrary) async throws -> Change {
        let (outcome, path) = TripEditing.create(edit, title: title, limits: library.job.options.limits)
        switch outcome {
        case .unreadable(let diagnostics), .refused(let diagnostics): return .refused(diagnostics, path: path)
        case .missing: return .changedElsewhere
        case .changed(let trip, let bytes):
            return try await library.writing { () throws -> Change in
                let taken = Set(try library.files().map(\.name.text))
                let name = TripNaming.name(for: title, taken: taken)
                try save(bytes, to: TripFile(name: name, format: .json), library: library)
                return .done(name, trip)
            }
        }
    }

    /// Writes `bytes`, which ``TripEditing`` made of a trip the validator passed, to `file`, and
    /// forgets what was kept of the old version.
    ///
    /// Bytes past the server's input limit are refused (413), as a `PUT` of them would be: a file
    /// the server would then not read could not be changed again from its pages.
    static func save(_ bytes: [UInt8], to file: TripFile, library: TripLibrary) throws {
        guard bytes.count <= library.settings.maxInputBytes else {
            throw Problem(
                .contentTooLarge, .fileTooLarge,
                "the changed trip would be \(bytes.count) bytes, past the server's input limit of "
                    + "\(library.settings.maxInputBytes): it is not saved")
        }
        try library.store.write(bytes, to: file)
        library.forget(file)
    }
}

/// The file name of a new trip: its title in lower-case ASCII letters and digits, words joined
/// by `-`.
enum TripNaming {
    /// ICU's transliteration of any script into Latin, then into ASCII.
    ///
    /// `Łódź` is `lodz`, `Straße` `strasse`, `Москва` `moskva`; letters with no ASCII form are
    /// left out.
    static let ascii = StringTransform("Any-Latin; Latin-ASCII; Lower")

    /// A name for `title` that none of `taken` has: `lisbon-in-spring`, then `lisbon-in-spring-2`.
    static func name(for title: String, taken: Set<String>) -> TripName {
        var words: [String] = []
        var word = ""
        var folded = title.lowercased()
        if let latin = title.applyingTransform(ascii, reverse: false) { folded = latin }
        for character in folded {
            if character.isASCII, character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        let stem = String(words.joined(separator: "-").prefix(64)).trimmingCharacters(in: ["-"])
        let base = stem.isEmpty ? "trip" : stem
        // Letters, digits and `-` make a name, whatever their number: the first free one is it.
        var candidate = base
        var number = 1
        while true {
            if !taken.contains(candidate), let name = TripName(decoded: candidate) { return name }
            number += 1
            candidate = "\(base)-\(number)"
        }
    }
}

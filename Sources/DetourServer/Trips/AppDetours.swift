import DetourCore
import DetourJob
import DetourRender
import HTTPTypes
import Hummingbird

/// A destination's detours in the app: a detour's page with its two sides, the forms that add a
/// detour, a task and a task's pros and cons, and the deletes, each asked once more.
///
/// Each post names what it changes by its place in the trip as the page showed it, and carries
/// the trip file's entity tag of that page (`version`): made to another version of the file it is
/// refused, and the page is shown again as the trip is now, with what was typed kept.
enum AppDetours {
    /// A trip the route names, valid, and the places in it the route names.
    struct Place {
        let name: TripName
        /// The trip's pages: `/trips/NAME` or `/shared/OWNER/trips/NAME`.
        let href: String
        let trip: Trip
        let version: String
        let stay: Int
        let detour: Int

        var destination: Destination { trip.destinations[stay] }
        var stayHref: String { AppPaths.destination(href, stay) }
        var detourHref: String { "\(stayHref)/detours/\(detour + 1)" }
    }

    /// What the route names: a place in a valid trip, or the trip's errors.
    enum Found {
        case place(Place)
        /// The answer that leads to the trip's preview, which lists its errors.
        case invalid(Response)
    }

    /// The place the route names (`name`, `number`, and `detour` when the route has one), or the
    /// answer that leads to the trip's preview when the trip has errors.
    static func place(_ context: ServerContext) async throws -> Found {
        let workspace = try context.trips()
        let name = try API.name(context)
        let snapshot = try await workspace.current(name)
        let href = "\(context.tripsBase)/\(name.text)"
        guard let trip = await workspace.library.check(snapshot, today: workspace.settings.today()).trip else {
            return .invalid(Response(status: .seeOther, headers: [.location: href, .cacheControl: "no-store"]))
        }
        let stay = try number(context, "number", count: trip.destinations.count)
        let detour =
            context.parameters.get("detour") == nil
            ? 0 : try number(context, "detour", count: trip.destinations[stay].detours.count)
        return .place(
            Place(name: name, href: href, trip: trip, version: snapshot.etag, stay: stay, detour: detour))
    }

    /// The place from 0 that the route's `parameter` numbers from 1, among `count`; 404 otherwise.
    static func number(_ context: ServerContext, _ parameter: String, count: Int) throws -> Int {
        guard let text = context.parameters.get(parameter), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(text), number >= 1, number <= count
        else { throw Problem.notFound }
        return number - 1
    }

    /// `GET …/destinations/N/detours/M`: the detour's two sides.
    static func detour(_ request: Request, context: ServerContext) async throws -> Response {
        switch try await place(context) {
        case .invalid(let redirect): return redirect
        case .place(let place): return try page(place, context: context, status: .ok)
        }
    }

    /// The detour's page: with what was `typed` in a side's form and the `problems` found in it,
    /// by field (`""` for the page), when a post was refused.
    static func page(
        _ place: Place, context: ServerContext, typed: [String: String] = [:], problems: [String: [String]] = [:],
        notice: String = "", status: HTTPResponse.Status
    ) throws -> Response {
        let detour = place.destination.detours[place.detour]
        let panes = ["left", "right"].enumerated().map { index, side -> TaskPaneModel in
            let heading = index == 0 ? "Left side" : "Right side"
            func field(_ name: String, _ label: String, hint: String = "", optional: Bool = false) -> FormFieldModel {
                var field = FormFieldModel(
                    "\(side)-\(name)", label: label, type: "text", value: typed["\(side)-\(name)"] ?? "",
                    problem: problems["\(side)-\(name)"].map { $0.joined(separator: " ") })
                field.hint = hint
                field.optional = optional
                return field
            }
            guard index < detour.tasks.count else {
                return TaskPaneModel(
                    side: side, heading: heading, action: "\(place.detourHref)/tasks",
                    fields: [
                        field("name", "Name"),
                        field("duration", "Duration", hint: "1h30m, 90m or PT1H30M"),
                        field("cost", "Cost", hint: "An amount and its currency: 12.50 EUR"),
                        field("lat", "Latitude", hint: "Optional: where it is, in decimal degrees", optional: true),
                        field("lon", "Longitude", optional: true),
                    ])
            }
            return TaskPaneModel(
                side: side, heading: heading, action: "\(place.detourHref)/tasks/\(index + 1)",
                task: detour.tasks[index], pro: field("pro", "New pro"), con: field("con", "New con"))
        }
        var page = ServerPageModel(
            title: detour.title, chrome: ChromeModel(bar: Chrome.bar(context.identity)), hasBack: false)
        page.tiles = Chrome.tiles(try context.trips().settings.tiles)
        page.detour = DetourPageModel(
            title: detour.title,
            destination: PageLinkModel(text: place.destination.name, href: place.stayHref),
            trip: PageLinkModel(text: place.trip.title, href: place.href), panes: panes,
            canEdit: try AppPages.mayEdit(context),
            formField: CSRFRule.formField, formToken: context.identity?.formToken ?? "", version: place.version,
            deleteHref: "\(place.detourHref)/delete",
            notice: ([notice] + (problems[""] ?? [])).filter { !$0.isEmpty }.joined(separator: " "))
        return Replies.page(page, status: status)
    }

    /// The fields every post of these pages carries.
    struct Version: Decodable {
        var version: String?
    }

    /// `POST …/destinations/N/detours`: a new detour with no task yet, opened.
    static func addDetour(_ request: Request, context: ServerContext) async throws -> Response {
        let sent = try await Form.read(Version.self, from: request)
        guard case .place(let place) = try await place(context) else { throw Problem.notFound }
        let change = try await AppForms.apply(
            .addDetour(stay: place.stay), to: place.name, version: sent.version ?? "",
            library: try context.trips().library)
        guard case .done(_, let trip) = change else {
            return try AppPages.destinationPage(place, context: context, notice: AppForms.changedElsewhere)
        }
        let href = "\(place.stayHref)/detours/\(trip.destinations[place.stay].detours.count)"
        return Response(status: .seeOther, headers: [.location: href, .cacheControl: "no-store"])
    }

    /// `POST …/detours/M/tasks`: the side's task, from the fields of the pane it was typed in.
    static func addTask(_ request: Request, context: ServerContext) async throws -> Response {
        let fields = try await Form.read([String: String].self, from: request)
        guard case .place(let place) = try await place(context) else { throw Problem.notFound }
        // The pane whose fields came: `left-name` or `right-name`, and so on.
        let side = fields.keys.contains { $0.hasPrefix("right-") } ? "right" : "left"
        func typed(_ name: String) -> String { fields["\(side)-\(name)"] ?? "" }
        let (amount, currency) = cost(typed("cost"))
        let task = TripEdit.TaskFields(
            name: typed("name"), duration: typed("duration"), amount: amount, currency: currency,
            latitude: typed("lat"), longitude: typed("lon"))
        let change = try await AppForms.apply(
            .addTask(stay: place.stay, detour: place.detour, task), to: place.name, version: version(fields),
            library: try context.trips().library)
        return try await answer(change, place: place, context: context, typed: fields) { path in
            [
                ("\(path).name", "\(side)-name"), ("\(path).duration", "\(side)-duration"),
                ("\(path).cost", "\(side)-cost"), ("\(path).cost.amount", "\(side)-cost"),
                ("\(path).cost.currency", "\(side)-cost"), ("\(path).location", "\(side)-lat"),
                ("\(path).location.lat", "\(side)-lat"), ("\(path).location.lon", "\(side)-lon"),
            ]
        }
    }

    /// A cost as typed, `12.50 EUR` or `EUR 12.50`, as its amount and its currency.
    ///
    /// A price that names one currency, however it is written (`€12`, `12,50 eur`, `1.234,50 €`),
    /// is read as that currency's code and the amount with a point. Else one word is an amount
    /// (the validator then asks for the currency), and two are an amount and a currency as typed.
    static func cost(_ text: String) -> (amount: String, currency: String) {
        if let price = PriceText(text), price.currencies.count == 1 {
            return (price.amount, price.currencies[0])
        }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 2 else { return (text.trimmingCharacters(in: .whitespaces), "") }
        let startsAmount = { (word: String) -> Bool in
            guard let first = word.first else { return false }
            return first.isNumber || "+-.,".contains(first)
        }
        return startsAmount(words[1]) && !startsAmount(words[0]) ? (words[1], words[0]) : (words[0], words[1])
    }

    /// The value of the first of `names` that `fields` has.
    static func first(of names: [String], in fields: [String: String]) -> String? {
        for name in names {
            if let value = fields[name] { return value }
        }
        return nil
    }

    /// The version a post was made of; a post without one matches none.
    static func version(_ fields: [String: String]) -> String {
        guard let version = fields["version"] else { return "" }
        return version
    }

    /// The fields a saved task's form may send: a pro or a con to add, or one to delete.
    static let noteFields: Set<String> = [
        "left-pro", "right-pro", "left-con", "right-con", "delete-pro", "delete-con", "version", CSRFRule.formField,
    ]

    /// `POST …/detours/M/tasks/S`: a pro or a con added to the task on side `S`, or one deleted.
    ///
    /// Nothing else of a saved task can be changed: a post with any other field is refused.
    static func notes(_ request: Request, context: ServerContext) async throws -> Response {
        let fields = try await Form.read([String: String].self, from: request)
        guard case .place(let place) = try await place(context) else { throw Problem.notFound }
        if let other = fields.keys.sorted().first(where: { !noteFields.contains($0) }) {
            throw Problem(
                .unprocessableContent, .badForm,
                "a saved task's name, duration, cost and place cannot be changed, only its pros and cons (\(other))")
        }
        let tasks = place.destination.detours[place.detour].tasks.count
        let side = try number(context, "side", count: tasks)
        let edit: TripEdit
        let field: String
        if let index = fields["delete-pro"].flatMap(Int.init) {
            (edit, field) = (.deleteNote(stay: place.stay, detour: place.detour, side: side, .pro, index), "")
        } else if let index = fields["delete-con"].flatMap(Int.init) {
            (edit, field) = (.deleteNote(stay: place.stay, detour: place.detour, side: side, .con, index), "")
        } else if let text = first(of: ["left-pro", "right-pro"], in: fields) {
            (edit, field) = (.addNote(stay: place.stay, detour: place.detour, side: side, .pro, text), "pro")
        } else if let text = first(of: ["left-con", "right-con"], in: fields) {
            (edit, field) = (.addNote(stay: place.stay, detour: place.detour, side: side, .con, text), "con")
        } else {
            throw Problem(.badRequest, .badForm, "the form's fields are not what this page sends")
        }
        let change = try await AppForms.apply(
            edit, to: place.name, version: version(fields), library: try context.trips().library)
        let pane = side == 0 ? "left" : "right"
        return try await answer(change, place: place, context: context, typed: fields) { path in
            field.isEmpty ? [] : [(path, "\(pane)-\(field)"), ("\(path)[", "\(pane)-\(field)")]
        }
    }

    /// The answer to a change posted from the detour's page: the page again when saved, or with
    /// the problems at the fields `fields` names for the change's path (a prefix ending in `[`
    /// takes every path it starts), with what was `typed`.
    static func answer(
        _ change: AppForms.Change, place: Place, context: ServerContext, typed: [String: String],
        fields: (String) -> [(String, String)]
    ) async throws -> Response {
        switch change {
        case .done:
            return Response(status: .seeOther, headers: [.location: place.detourHref, .cacheControl: "no-store"])
        case .refused(let diagnostics, let path):
            let problems = AppForms.fieldProblems(diagnostics, fields: fields(path))
            return try page(place, context: context, typed: typed, problems: problems, status: .unprocessableContent)
        case .unreadable, .changedElsewhere:
            // The page as the trip is now, when it still has the detour.
            guard case .place(let now) = try? await self.place(context) else {
                return Response(status: .seeOther, headers: [.location: place.href, .cacheControl: "no-store"])
            }
            return try page(
                now, context: context, typed: typed, notice: AppForms.changedElsewhere, status: .preconditionFailed)
        }
    }

    /// `GET …/detours/M/delete` and `…/destinations/N/delete`: asked once more.
    static func confirmDelete(_ request: Request, context: ServerContext) async throws -> Response {
        guard case .place(let place) = try await place(context) else { throw Problem.notFound }
        let isDetour = context.parameters.get("detour") != nil
        let question =
            isDetour
            ? "Delete the detour “\(place.destination.detours[place.detour].title)”?"
            : "Delete the destination “\(place.destination.name)”?"
        let detail =
            isDetour
            ? "Its tasks, with their pros and cons, go with it. This cannot be undone from here."
            : "Its \(place.destination.detours.count) detours go with it. This cannot be undone from here."
        let here = isDetour ? place.detourHref : place.stayHref
        var page = ServerPageModel(
            title: question, chrome: ChromeModel(bar: Chrome.bar(context.identity)), hasBack: false)
        page.confirm = ConfirmModel(
            question: question, detail: detail, action: "\(here)/delete", cancelHref: here, version: place.version)
        page.formField = CSRFRule.formField
        page.formToken = context.identity?.formToken ?? ""
        return Replies.page(page, status: .ok)
    }

    /// `POST …/detours/M/delete` and `…/destinations/N/delete`.
    static func delete(_ request: Request, context: ServerContext) async throws -> Response {
        let sent = try await Form.read(Version.self, from: request)
        guard case .place(let place) = try await place(context) else { throw Problem.notFound }
        let isDetour = context.parameters.get("detour") != nil
        let edit: TripEdit =
            isDetour ? .deleteDetour(stay: place.stay, detour: place.detour) : .deleteDestination(stay: place.stay)
        let change = try await AppForms.apply(
            edit, to: place.name, version: sent.version ?? "", library: try context.trips().library)
        guard case .done = change else {
            return isDetour
                ? try page(place, context: context, notice: AppForms.changedElsewhere, status: .preconditionFailed)
                : try AppPages.destinationPage(place, context: context, notice: AppForms.changedElsewhere)
        }
        let next = isDetour ? place.stayHref : "/"
        return Response(status: .seeOther, headers: [.location: next, .cacheControl: "no-store"])
    }
}

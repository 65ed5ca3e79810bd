import DetourCore
import DetourTemplateSchema
import DetourTemplates
import Foundation
import Mustache
import Testing

@testable import DetourMustacheSyntax
@testable import DetourRender

/// The server's own pages and the chrome it puts on reports: compiled as the reports are, they
/// write what the template engine writes for them, escape every value, and show each part of a
/// page only when its model has it.
@Suite struct ServerPageTests {
    static let hostile = "<b>\"x\" & 'y'</b>"
    /// ``hostile`` as a template writes it.
    static let escapedHostile = Escaping.html(hostile)

    static let bar = AccountBarModel(email: "alice+\(hostile)@example.org", formField: "csrf", formToken: "T0K")

    static func share(members: Int, refused: Bool) -> SharePanelModel {
        var panel = SharePanelModel(
            action: "/trips/lisbon/members",
            members: (0..<members).map { ShareMemberModel(email: "m\($0)\(hostile)@example.org", role: "viewer") },
            formField: "csrf", formToken: "T0K")
        if refused { (panel.typed, panel.problem) = (hostile, "no account has the address \(hostile)") }
        return panel
    }

    static let chromes: [ChromeModel] = [
        ChromeModel(),
        ChromeModel(bar: bar),
        ChromeModel(bar: bar, share: share(members: 0, refused: false)),
        ChromeModel(bar: bar, share: share(members: 2, refused: true)),
        ChromeModel(
            bar: bar,
            shared: [
                SharedTripModel(
                    href: "/shared/ab/trips/x", name: "x\(hostile)", owner: "o@example.org", role: "editor"),
                SharedTripModel(href: "/shared/cd/trips/y", name: "y", owner: "p\(hostile)", role: "viewer"),
            ]),
        ChromeModel(preview: PreviewBarModel(downloads: [("HTML", "/trips/a.html"), ("JSON", "/trips/a.json")])),
    ]

    static var pages: [ServerPageModel] {
        var pages: [ServerPageModel] = []
        let fields = [
            FormFieldModel("email", label: "E-mail address", type: "email", value: hostile, autocomplete: "username"),
            FormFieldModel("password", label: "Password", type: "password", problem: hostile),
        ]
        for (problem, canRegister) in [(nil, true), (hostile, false)] {
            var login = ServerPageModel(title: "Log in", hasBack: false)
            login.login = LoginPageModel(problem: problem, fields: fields, canRegister: canRegister)
            pages.append(login)
        }
        var register = ServerPageModel(title: "Create an account", hasBack: false)
        register.register = RegisterPageModel(fields: fields)
        pages.append(register)
        var closed = ServerPageModel(title: "Registration is closed", hasBack: false)
        closed.closed = true
        pages.append(closed)
        for (notice, invites) in [(nil, false), (hostile, true)] {
            var account = ServerPageModel(title: "Your account", chrome: ChromeModel(bar: bar), hasBack: true)
            account.account = AccountPageModel(
                notice: notice, email: bar.email, formField: "csrf", formToken: "T0K", passwordFields: fields,
                sessions: [
                    SessionRowModel(began: "b", seen: "s", client: hostile, isThis: true, handle: "h1"),
                    SessionRowModel(began: "b", seen: "s", client: "-", isThis: false, handle: "h2"),
                ],
                tokens: invites
                    ? [TokenRowModel(name: hostile, scope: "read", made: "m", expires: "never", used: "u", id: "i")]
                    : [],
                tokenName: FormFieldModel("name", label: "Name", type: "text", problem: notice),
                daysProblem: notice, invites: invites)
            pages.append(account)
        }
        for rows in [0, 2] {
            var problems = ServerPageModel(title: "t\(hostile)", chrome: ChromeModel(bar: bar), hasBack: true)
            problems.problems = ProblemsPageModel(
                heading: "t\(hostile)", summary: "1 error, 1 warning",
                rows: (0..<rows).map {
                    ProblemRowModel(
                        severity: $0 == 0 ? "error" : "warning", place: "t.json:\($0)", code: "read-failed",
                        href: "/docs/diagnostics/read-failed", message: hostile)
                })
            pages.append(problems)
        }
        var diagnostic = ServerPageModel(title: "usage", hasBack: true)
        let line = [DocSpanModel(hostile), DocSpanModel(hostile, .code), DocSpanModel(hostile, .bold)]
        diagnostic.diagnostic = DiagnosticPageModel(
            code: "usage\(hostile)",
            blocks: [
                .paragraph(line), .list([DocLineModel(line), DocLineModel(line)]),
                .table(header: [DocLineModel(line)], rows: [DocRowModel([DocLineModel(line)])]), .code(hostile),
            ])
        pages.append(diagnostic)
        var error = ServerPageModel(title: "Not Found", hasBack: true)
        error.error = ErrorPageModel(heading: "Not Found", message: hostile, code: "not-found")
        pages.append(error)
        return pages + appPages
    }

    /// The destination list (empty, and with rows and trips with errors) and a destination's page,
    /// every value of theirs hostile.
    static var appPages: [ServerPageModel] {
        guard let point = Coordinate(latitude: 38.7, longitude: -9.1), let day = CalendarDay(iso: "2027-05-01"),
            let later = CalendarDay(iso: "2027-05-03"), let hour = TaskDuration(minutes: 60),
            let euro = CurrencyCode("EUR")
        else { return [] }
        let task = DetourTask(
            name: hostile, duration: hour, cost: Money(amount: 1, currency: euro), location: nil, pros: [], cons: [])
        let stay = Destination(
            name: "s\(hostile)", location: point, arrival: day, departure: later,
            detours: [Detour(tasks: [task, task])])
        let trip = Trip(title: "t\(hostile)", traveler: nil, destinations: [stay, stay])
        let listed = ListedTrip(trip: trip, href: "/trips/t", sharedBy: "o\(hostile)")
        var pages: [ServerPageModel] = []
        for (trips, unlisted) in [([], []), ([listed], [PageLinkModel(text: hostile, href: "/trips/x")])] {
            var list = ServerPageModel(title: "Destinations", chrome: ChromeModel(bar: bar), hasBack: false)
            list.destinations = DestinationListModel(
                trips: trips, unlisted: unlisted, today: day, addHref: trips.isEmpty ? "" : "/destinations/new")
            pages.append(list)
        }
        for problems in [[], [hostile, hostile]] {
            var form = ServerPageModel(title: "Add destination", chrome: ChromeModel(bar: bar), hasBack: true)
            var name = FormFieldModel("name", label: "Name", type: "text", value: hostile, problem: problems.first)
            name.optional = true
            name.hint = "Left empty, the nearest town"
            form.addDestination = DestinationFormModel(
                action: "/destinations", formField: "csrf", formToken: "T0K",
                fields: [name, FormFieldModel("arrival", label: "Arrival", type: "date", value: hostile)],
                trips: [
                    OptionModel(value: hostile, text: hostile, selected: true),
                    OptionModel(value: "+new", text: "A new trip", selected: false),
                ],
                title: FormFieldModel("title", label: "Title", type: "text", value: hostile), problems: problems)
            pages.append(form)
        }
        for index in [0, 1] {
            var page = ServerPageModel(title: stay.name, chrome: ChromeModel(bar: bar), hasBack: false)
            var bare = listed
            bare.trip.destinations[index].detours = []
            page.destination = DestinationPageModel(
                index == 0 ? listed : bare, index: index, reports: [("Preview", "/trips/t"), ("HTML", "/trips/t.html")])
            pages.append(page)
        }
        return pages
    }

    static func engine() throws -> MustacheLibrary {
        ContentTypes.register()
        var library = MustacheLibrary()
        for (name, text) in BundledTemplates.files { library.register(try MustacheTemplate(string: text), named: name) }
        return library
    }

    @Test func theCompiledPagesMatchTheTemplateEngine() throws {
        let engine = try Self.engine()
        for page in Self.pages {
            for chrome in Self.chromes {
                var model = page
                if chrome.bar != nil || !model.chrome.isEmpty { model.chrome = chrome }
                let compiled = String(decoding: ServerPages.page(model), as: UTF8.self)
                #expect(compiled == engine.render(model, withTemplate: TemplateRoots.serverPage), "\(model.title)")
                #expect(!compiled.contains(Self.hostile), "every value is escaped")
            }
        }
        for chrome in Self.chromes {
            let compiled = String(decoding: ServerPages.chrome(chrome), as: UTF8.self)
            #expect(compiled == engine.render(chrome, withTemplate: TemplateRoots.chrome))
            #expect(!compiled.contains(Self.hostile))
        }
        let script = ReloadScriptModel(nonce: "n0", version: #""\u003cv""#, events: #""/trips/a/events""#)
        let compiled = String(
            decoding: ServerPages.reloadScript(nonce: script.nonce, version: script.version, events: script.events),
            as: UTF8.self)
        #expect(compiled == engine.render(script, withTemplate: TemplateRoots.reloadScript))
        #expect(
            compiled == #"<script nonce="n0">(function () {"# + "\n" + #"  var version = "\u003cv";"# + "\n"
                + #"  var events = new EventSource("/trips/a/events");"# + "\n"
                + "  events.onmessage = function (event) {\n"
                + "    if (event.data !== version) { events.close(); location.reload(); }\n  };\n})();</script>\n")
    }

    /// Each part shows only when its model has it, and the chrome of no one is nothing at all.
    @Test func eachPartShowsWhenItsModelHasIt() {
        #expect(ServerPages.chrome(ChromeModel()).isEmpty)
        let panel = String(decoding: ServerPages.chrome(Self.chromes[3]), as: UTF8.self)
        #expect(panel.contains("(viewer) <form") && panel.contains("</form> · m1"), "members apart by a dot")
        #expect(panel.contains("aria-invalid=\"true\" aria-describedby=\"share-email-problem\""))
        let lonely = String(decoding: ServerPages.chrome(Self.chromes[2]), as: UTF8.self)
        #expect(lonely.contains("Shared with: no one · ") && !lonely.contains("aria-invalid"))
        let pages = Self.pages.map { String(decoding: ServerPages.page($0), as: UTF8.self) }
        #expect(pages[0].contains("Create one") && !pages[1].contains("Create one"))
        #expect(!pages[0].contains("role=\"alert\"") && pages[1].contains("role=\"alert\""))
        #expect(pages[0].contains("autocomplete=\"username\"") && !pages[0].contains("autocomplete=\"\""))
        #expect(pages[3].contains("Registration is closed") && !pages[3].contains("← Destinations"))
        #expect(!pages[4].contains("Invitations") && pages[5].contains("Invitations"))
        #expect(pages[4].contains("this session") && pages[4].contains("name=\"session\" value=\"h2\""))
        #expect(!pages[4].contains("days-problem") && pages[5].contains("days-problem"))
        #expect(!pages[6].contains("<tr class=") && pages[7].contains("<tr class=\"warning\">"))
        let line = "\(Self.escapedHostile)<code>\(Self.escapedHostile)</code><strong>\(Self.escapedHostile)</strong>"
        #expect(
            pages[8].hasSuffix(
                "<h1><code>usage\(Self.escapedHostile)</code></h1>\n<p>\(line)</p>\n<ul>\n<li>\(line)</li>\n"
                    + "<li>\(line)</li>\n</ul>\n<table>\n<thead><tr><th>\(line)</th></tr></thead>\n<tbody>\n"
                    + "<tr><td>\(line)</td></tr>\n</tbody>\n</table>\n<pre><code>\(Self.escapedHostile)</code></pre>\n"
                    + "</body>\n</html>\n"), "\(pages[8].suffix(900))")
        #expect(pages[9].contains("<p>Code: <code>not-found</code></p>\n</body>") && !pages[8].contains("Code:"))
        for page in pages {
            #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n"))
            #expect(page.components(separatedBy: "<style>").count == 2 + (page.contains("account-bar") ? 1 : 0))
        }
    }

    /// The page templates pass the check `--templates` runs: every key is the model's, and user
    /// text is never written raw.
    @Test func thePageTemplatesWriteUserTextEscaped() throws {
        var parsed: [String: [MustacheNode]] = [:]
        for (name, text) in BundledTemplates.files { parsed[name] = try MustacheParser.parse(text) }
        var check = TemplateCheck(templates: parsed)
        for name in [TemplateRoots.serverPage, TemplateRoots.chrome, TemplateRoots.field] {
            let root = try #require(TemplateRoots.builtIn[name])
            check.walk(root: name, contentType: root.contentType, scope: root.scope)
        }
        #expect(check.warnings.isEmpty, "\(check.warnings)")
    }
}

/// The keys the report templates can look up, typed: the one description of the report model
/// that both the template check (warnings for `--templates`) and the template compiler (which
/// turns the built-in templates into Swift at build time) read.
///
/// It is a module of its own, with no dependencies, because the compiler runs at build time,
/// before the report model's module exists.

/// What a template can look up in a `ReportModel`, by context: the model's keys, typed.
///
/// Each key is declared here once. The template compiler reads this at build time to compile the
/// built-in templates and to generate the model's lookups for the template engine (a `switch`
/// per model type); a key whose property the model lacks fails the build.
public indirect enum TemplateValue: Sendable, Equatable {
    /// Text; `user` when it comes from the trip file (names, pros, the title) and must be escaped.
    case text(user: Bool)
    /// A flag for `{{#flag}}` and `{{^flag}}`.
    case flag
    /// A whole number.
    case number
    /// A list; a section repeats for each element.
    case list(TemplateValue)
    /// A part of the model with keys of its own.
    case object(TemplateScope)
    /// A sequence's position: what `first()`, `last()`, `index()`, `even()`, `odd()` read.
    case position

    /// Whether rendering this as it is would write text from the trip file.
    public var holdsUserText: Bool {
        switch self {
        case .text(let user): return user
        case .list(let element): return element.holdsUserText
        case .flag, .number, .object, .position: return false
        }
    }
}

/// The keys of one part of the report model.
public struct TemplateScope: Sendable, Equatable {
    /// The model type's name, for messages.
    public var name: String
    /// Each key and what it holds.
    public var keys: [String: TemplateValue]
}

extension TemplateScope {
    private static let userText = TemplateValue.text(user: true)
    private static let typedText = TemplateValue.text(user: false)

    /// `WarningModel`.
    public static let warning = TemplateScope(
        name: "WarningModel", keys: ["path": userText, "hasPath": .flag, "message": userText, "code": typedText])
    /// `SideModel`.
    public static let side = TemplateScope(
        name: "SideModel",
        keys: [
            "label": typedText, "isDecided": .flag, "name": userText, "duration": typedText, "cost": typedText,
            "distance": typedText, "hasDistance": .flag, "pros": .list(userText), "cons": .list(userText),
            "hasPros": .flag, "hasCons": .flag, "betterDuration": .flag, "betterCost": .flag,
            "betterDistance": .flag, "travel": typedText, "total": typedText, "betterTotal": .flag,
            "isRecommended": .flag, "mapLink": typedText, "hasMapLink": .flag,
        ])
    /// `DetourModel`.
    public static let detour = TemplateScope(
        name: "DetourModel",
        keys: [
            "number": .number, "title": userText, "isDraft": .flag, "sides": .list(.object(side)),
            "left": .object(side), "right": .object(side), "recommended": userText, "hasRecommendation": .flag,
            "recommendationReason": typedText, "chosen": userText, "hasChosen": .flag, "chosenByBudget": .flag,
            "hasPros": .flag, "hasCons": .flag,
        ])
    /// `ScheduleDayModel`.
    public static let scheduleDay = TemplateScope(
        name: "ScheduleDayModel",
        keys: ["day": typedText, "items": .list(userText), "note": typedText, "hasNote": .flag])
    /// `StayPlanModel`.
    public static let stayPlan = TemplateScope(
        name: "StayPlanModel",
        keys: [
            "totals": typedText, "budget": typedText, "hasBudget": .flag, "overBudget": .flag,
            "days": .list(.object(scheduleDay)), "hasDays": .flag, "unscheduled": .list(userText),
            "hasUnscheduled": .flag,
        ])
    /// `StayRowModel`.
    public static let stayRow = TemplateScope(
        name: "StayRowModel",
        keys: [
            "name": userText, "dates": typedText, "nights": typedText, "chosen": typedText, "hours": typedText,
            "overHours": .flag, "cost": typedText,
        ])
    /// `OverviewModel`.
    public static let overview = TemplateScope(
        name: "OverviewModel",
        keys: [
            "firstDay": typedText, "lastDay": typedText, "nights": typedText, "hasStays": .flag,
            "stays": .list(.object(stayRow)), "costs": .list(typedText), "hasCosts": .flag, "costInCurrency": typedText,
            "hasCostInCurrency": .flag, "total": typedText, "budget": typedText, "hasBudget": .flag,
            "overBudget": .flag, "chosen": typedText,
            "warnings": typedText, "hasWarnings": .flag,
        ])
    /// `MapMark`.
    public static let mark = TemplateScope(
        name: "MapMark",
        keys: [
            "x": typedText, "y": typedText, "labelX": typedText, "labelY": typedText, "label": userText,
            "fromX": typedText, "fromY": typedText, "route": typedText, "hasRoute": .flag, "pin": typedText,
            "hasLabel": .flag,
        ])
    /// `MapModel`.
    public static let map = TemplateScope(
        name: "MapModel",
        keys: [
            "width": .number, "height": .number, "center": .object(mark), "marks": .list(.object(mark)),
            "hasMarks": .flag, "listed": .list(.object(mark)), "hasListed": .flag, "scaleBarLength": typedText,
            "scaleBarLabel": typedText, "scaleBarX1": typedText,
            "scaleBarX2": typedText, "scaleBarY": typedText, "scaleLabelY": typedText,
        ])
    /// `DestinationModel`.
    public static let destination = TemplateScope(
        name: "DestinationModel",
        keys: [
            "name": userText, "arrival": typedText, "departure": typedText, "arrivalISO": typedText,
            "departureISO": typedText, "nights": typedText, "coordinate": typedText, "mapLink": typedText,
            "pageBreakBefore": .flag,
            "map": .object(map), "detours": .list(.object(detour)), "hasDetours": .flag, "plan": .object(stayPlan),
        ])
    /// `SectionModel`.
    public static let section = TemplateScope(
        name: "SectionModel",
        keys: [
            "name": typedText, "heading": typedText, "emptyText": typedText,
            "destinations": .list(.object(destination)), "isEmpty": .flag, "pageBreakBefore": .flag,
        ])
    /// `IndexLinkModel`.
    public static let indexLink = TemplateScope(name: "IndexLinkModel", keys: ["label": typedText, "href": typedText])

    /// `IndexRowModel`.
    public static let indexRow = TemplateScope(
        name: "IndexRowModel",
        keys: [
            "title": userText, "source": userText, "dates": typedText, "hasDates": .flag, "stays": typedText,
            "status": typedText, "statusWord": typedText, "isWritten": .flag, "warnings": typedText,
            "hasWarnings": .flag, "note": userText,
            "hasNote": .flag, "links": .list(.object(indexLink)), "hasLinks": .flag,
        ])

    /// `IndexModel`: where the index templates start.
    public static let index = TemplateScope(
        name: "IndexModel",
        keys: ["summary": typedText, "trips": .list(.object(indexRow)), "hasTrips": .flag])

    /// `ReportModel`: where every report template starts.
    public static let report = TemplateScope(
        name: "ReportModel",
        keys: [
            "title": userText, "traveler": userText, "today": typedText, "todayISO": typedText,
            "sections": .list(.object(section)), "warnings": .list(.object(warning)), "hasWarnings": .flag,
            "footnotes": .list(typedText), "destinationCount": .number, "destinationSummary": typedText,
            "overview": .object(overview),
        ])
}

/// The server's own pages (`page.html.mustache`) and what it adds to a report or index it serves
/// (`chrome.html.mustache`): `ServerPageModel` and `ChromeModel` and their parts.
extension TemplateScope {
    /// `FormFieldModel`: a labelled input and its problem.
    public static let formField = TemplateScope(
        name: "FormFieldModel",
        keys: [
            "name": typedText, "label": typedText, "type": typedText, "value": userText, "autocomplete": typedText,
            "hasAutocomplete": .flag, "problem": userText, "hasProblem": .flag, "optional": .flag,
            "hint": typedText, "hasHint": .flag,
        ])
    /// `AccountBarModel`: who is signed in, and the form that logs out.
    public static let accountBar = TemplateScope(
        name: "AccountBarModel", keys: ["email": userText, "formField": typedText, "formToken": typedText])
    /// `ShareMemberModel`.
    public static let shareMember = TemplateScope(
        name: "ShareMemberModel", keys: ["email": userText, "role": typedText])
    /// `SharePanelModel`: a trip's members and the form that shares it.
    public static let sharePanel = TemplateScope(
        name: "SharePanelModel",
        keys: [
            "action": userText, "members": .list(.object(shareMember)), "formField": typedText,
            "formToken": typedText, "typed": userText, "problem": userText, "hasProblem": .flag,
        ])
    /// `SharedTripModel`: a trip shared with the account, on its index.
    public static let sharedTrip = TemplateScope(
        name: "SharedTripModel", keys: ["href": userText, "name": userText, "owner": userText, "role": typedText])
    /// `PreviewBarModel`: the links a preview opens with.
    public static let previewBar = TemplateScope(
        name: "PreviewBarModel", keys: ["downloads": .list(.object(indexLink))])
    /// `ChromeModel`: what the server puts after a page's `<body>` tag.
    public static let chrome = TemplateScope(
        name: "ChromeModel",
        keys: [
            "bar": .object(accountBar), "share": .object(sharePanel), "shared": .list(.object(sharedTrip)),
            "hasShared": .flag, "preview": .object(previewBar),
        ])
    /// `LoginPageModel`.
    public static let loginPage = TemplateScope(
        name: "LoginPageModel",
        keys: [
            "problem": userText, "hasProblem": .flag, "fields": .list(.object(formField)), "canRegister": .flag,
        ])
    /// `RegisterPageModel`.
    public static let registerPage = TemplateScope(
        name: "RegisterPageModel", keys: ["fields": .list(.object(formField))])
    /// `SessionRowModel`: one of an account's sessions.
    public static let sessionRow = TemplateScope(
        name: "SessionRowModel",
        keys: [
            "began": typedText, "seen": typedText, "client": userText, "isThis": .flag, "handle": typedText,
        ])
    /// `TokenRowModel`: one of an account's API tokens.
    public static let tokenRow = TemplateScope(
        name: "TokenRowModel",
        keys: [
            "name": userText, "scope": typedText, "made": typedText, "expires": typedText, "used": typedText,
            "id": typedText,
        ])
    /// `AccountPageModel`.
    public static let accountPage = TemplateScope(
        name: "AccountPageModel",
        keys: [
            "notice": userText, "hasNotice": .flag, "email": userText, "formField": typedText,
            "formToken": typedText, "passwordFields": .list(.object(formField)),
            "sessions": .list(.object(sessionRow)), "tokens": .list(.object(tokenRow)),
            "tokenName": .object(formField), "daysProblem": userText, "hasDaysProblem": .flag,
            "invites": .flag,
        ])
    /// `ProblemRowModel`: one diagnostic of a trip, on its problems page.
    public static let problemRow = TemplateScope(
        name: "ProblemRowModel",
        keys: [
            "severity": typedText, "place": userText, "code": typedText, "href": typedText, "message": userText,
        ])
    /// `ProblemsPageModel`: a trip's diagnostics in place of its report.
    public static let problemsPage = TemplateScope(
        name: "ProblemsPageModel",
        keys: ["heading": userText, "summary": typedText, "rows": .list(.object(problemRow))])
    /// `DocSpanModel`: a run of a line of the documentation: plain, code or bold.
    public static let docSpan = TemplateScope(
        name: "DocSpanModel", keys: ["text": userText, "isCode": .flag, "isBold": .flag, "isPlain": .flag])
    /// `DocLineModel`: a line of the documentation: a list's item, a table's cell.
    public static let docLine = TemplateScope(name: "DocLineModel", keys: ["spans": .list(.object(docSpan))])
    /// `DocRowModel`: a row of a table in the documentation.
    public static let docRow = TemplateScope(name: "DocRowModel", keys: ["cells": .list(.object(docLine))])
    /// `DocBlockModel`: a paragraph, a list, a table or a block of code of the documentation.
    public static let docBlock = TemplateScope(
        name: "DocBlockModel",
        keys: [
            "isParagraph": .flag, "spans": .list(.object(docSpan)), "isList": .flag, "items": .list(.object(docLine)),
            "isTable": .flag, "header": .list(.object(docLine)), "rows": .list(.object(docRow)), "isCode": .flag,
            "code": userText,
        ])
    /// `ReloadScriptModel`: the live preview's script; `version` and `events` are JSON strings
    /// made safe inside a `<script>` element, written as they are.
    public static let reloadScript = TemplateScope(
        name: "ReloadScriptModel", keys: ["nonce": typedText, "version": typedText, "events": typedText])
    /// `DiagnosticPageModel`: a section of the diagnostics' documentation.
    public static let diagnosticPage = TemplateScope(
        name: "DiagnosticPageModel", keys: ["code": userText, "blocks": .list(.object(docBlock))])

    /// `ErrorPageModel`: a refusal, as a browser is told it.
    public static let errorPage = TemplateScope(
        name: "ErrorPageModel", keys: ["heading": typedText, "message": userText, "code": typedText])

    /// `PageLinkModel`: a link to a page of the server's own.
    public static let pageLink = TemplateScope(name: "PageLinkModel", keys: ["text": userText, "href": typedText])
    /// `DestinationRowModel`: a destination in the list.
    public static let destinationRow = TemplateScope(
        name: "DestinationRowModel",
        keys: [
            "name": userText, "dates": typedText, "trip": userText, "sharedBy": userText, "isShared": .flag,
            "href": typedText,
        ])
    /// `DestinationSectionModel`: a section of the destination list.
    public static let destinationSection = TemplateScope(
        name: "DestinationSectionModel",
        keys: [
            "name": typedText, "heading": typedText, "emptyText": typedText,
            "rows": .list(.object(destinationRow)), "isEmpty": .flag,
        ])
    /// `DestinationListModel`: the destinations of every trip the person has, in sections.
    public static let destinationList = TemplateScope(
        name: "DestinationListModel",
        keys: [
            "sections": .list(.object(destinationSection)), "unlisted": .list(.object(pageLink)),
            "hasUnlisted": .flag, "addHref": typedText, "canAdd": .flag,
        ])
    /// `DestinationPageModel`: a destination's page.
    public static let destinationPage = TemplateScope(
        name: "DestinationPageModel",
        keys: [
            "name": userText, "dates": typedText, "nights": typedText, "trip": .object(pageLink),
            "detours": .list(.object(pageLink)), "hasDetours": .flag, "reports": .list(.object(indexLink)),
            "href": typedText, "canEdit": .flag, "formField": typedText, "formToken": typedText,
            "version": typedText, "addDetourAction": typedText, "deleteHref": typedText, "notice": userText,
            "hasNotice": .flag, "points": userText,
        ])

    /// `OptionModel`: one choice of a `<select>`.
    public static let option = TemplateScope(
        name: "OptionModel", keys: ["value": userText, "text": userText, "selected": .flag])
    /// `DestinationFormModel`: the form that adds a destination.
    public static let destinationForm = TemplateScope(
        name: "DestinationFormModel",
        keys: [
            "action": typedText, "formField": typedText, "formToken": typedText,
            "fields": .list(.object(formField)), "trips": .list(.object(option)), "title": .object(formField),
            "problems": .list(userText), "hasProblems": .flag,
        ])

    /// `NewTripFormModel`: the form that makes a new, empty trip.
    public static let newTripForm = TemplateScope(
        name: "NewTripFormModel",
        keys: ["action": typedText, "formField": typedText, "formToken": typedText, "title": .object(formField)])

    /// `NoteModel`: a pro or a con, and its place.
    public static let note = TemplateScope(name: "NoteModel", keys: ["text": userText, "index": .number])
    /// `TaskPaneModel`: one side of a detour.
    public static let taskPane = TemplateScope(
        name: "TaskPaneModel",
        keys: [
            "side": typedText, "heading": typedText, "isEditing": .flag, "action": typedText,
            "fields": .list(.object(formField)), "name": userText, "duration": typedText, "cost": typedText,
            "place": typedText, "hasPlace": .flag, "pros": .list(.object(note)), "cons": .list(.object(note)),
            "hasPros": .flag, "hasCons": .flag, "pro": .object(formField), "con": .object(formField),
        ])
    /// `DetourPageModel`: a detour's page.
    public static let detourPage = TemplateScope(
        name: "DetourPageModel",
        keys: [
            "title": userText, "destination": .object(pageLink), "trip": .object(pageLink),
            "panes": .list(.object(taskPane)), "canEdit": .flag, "formField": typedText, "formToken": typedText,
            "version": typedText, "deleteHref": typedText, "notice": userText, "hasNotice": .flag,
        ])
    /// `ConfirmModel`: a page that asks once more before a delete.
    public static let confirm = TemplateScope(
        name: "ConfirmModel",
        keys: [
            "question": userText, "detail": userText, "action": typedText, "cancelHref": typedText,
            "version": typedText,
        ])

    /// `TilesModel`: a tile server for a page's map.
    public static let tiles = TemplateScope(
        name: "TilesModel", keys: ["template": typedText, "attribution": userText, "source": typedText])

    /// `ServerPageModel`: where the server's page template starts.
    public static let serverPage = TemplateScope(
        name: "ServerPageModel",
        keys: [
            "title": userText, "chrome": .object(chrome), "hasBack": .flag, "hasForms": .flag, "hasMap": .flag,
            "login": .object(loginPage), "register": .object(registerPage), "closed": .flag,
            "account": .object(accountPage), "problems": .object(problemsPage),
            "diagnostic": .object(diagnosticPage), "error": .object(errorPage),
            "destinations": .object(destinationList), "destination": .object(destinationPage),
            "addDestination": .object(destinationForm), "newTrip": .object(newTripForm), "detour": .object(detourPage),
            "tiles": .object(tiles),
            "confirm": .object(confirm),
            "formField": typedText, "formToken": typedText,
        ])
}

extension TemplateScope {
    /// Every scope reachable from `roots` through their objects and lists, each once, in the
    /// order first reached.
    public static func reachable(from roots: [TemplateScope]) -> [TemplateScope] {
        var found: [TemplateScope] = []
        var pending = roots
        while !pending.isEmpty {
            let scope = pending.removeFirst()
            guard !found.contains(where: { $0.name == scope.name }) else { continue }
            found.append(scope)
            for (_, value) in scope.keys.sorted(by: { $0.key < $1.key }) {
                var inner = value
                while case .list(let element) = inner { inner = element }
                if case .object(let child) = inner { pending.append(child) }
            }
        }
        return found
    }
}

/// The template files built into the binary, with the part of the model each starts from and the
/// content type it must declare.
public enum TemplateRoots {
    /// One built-in template's place in the model.
    public struct Root: Sendable {
        /// The scope the template starts in.
        public var scope: TemplateScope
        /// The content type the template declares with `{{% CONTENT_TYPE: … }}`.
        public var contentType: String
    }

    /// The report as HTML.
    public static let reportHTML = "report.html.mustache"
    /// The report as Markdown.
    public static let reportMarkdown = "report.md.mustache"
    /// A batch run's index as HTML.
    public static let indexHTML = "index.html.mustache"
    /// A batch run's index as Markdown.
    public static let indexMarkdown = "index.md.mustache"
    /// A page of the server's own: one layout for every page.
    public static let serverPage = "page.html.mustache"
    /// What the server adds after `<body>`: the account bar, sharing, the preview's links.
    public static let chrome = "chrome.html.mustache"
    /// One labelled input of a form on the server's pages, a partial of `page.html.mustache`.
    public static let field = "field.html.mustache"
    /// A run of a line of the documentation, a partial of `page.html.mustache`.
    public static let docSpan = "span.html.mustache"
    /// The live preview's script, put before a report's `</body>`.
    public static let reloadScript = "reload.html.mustache"

    /// Every built-in template, by file name (each is also embedded by name in `Package.swift`).
    public static let builtIn: [String: Root] = [
        reportHTML: Root(scope: .report, contentType: "DETOUR_HTML"),
        reportMarkdown: Root(scope: .report, contentType: "DETOUR_MARKDOWN"),
        indexHTML: Root(scope: .index, contentType: "DETOUR_HTML"),
        indexMarkdown: Root(scope: .index, contentType: "DETOUR_MARKDOWN"),
        serverPage: Root(scope: .serverPage, contentType: "DETOUR_HTML"),
        chrome: Root(scope: .chrome, contentType: "DETOUR_HTML"),
        field: Root(scope: .formField, contentType: "DETOUR_HTML"),
        docSpan: Root(scope: .docSpan, contentType: "DETOUR_HTML"),
        reloadScript: Root(scope: .reloadScript, contentType: "DETOUR_HTML"),
    ]
}

import DetourTemplateSchema

/// The models of the server's own HTML: its pages (`page.html.mustache`, one layout for all) and
/// what it puts after `<body>` on every page it sends a browser (`chrome.html.mustache`).
///
/// Like the report model, they hold values, never markup: the templates write every value
/// escaped, so no handler escapes by hand. Their keys are declared in `TemplateSchema.swift`,
/// which the template compiler checks the templates against at build time.

/// A page of the server's own: its title, the account bar, and one of its kinds of body.
public struct ServerPageModel: Sendable {
    public var title: String
    /// What goes after `<body>`: nothing, or the account bar of whoever is signed in.
    public var chrome: ChromeModel
    /// The link back to the list of trips at the top.
    public var hasBack: Bool
    public var login: LoginPageModel?
    public var register: RegisterPageModel?
    /// The page that says registration is closed.
    public var closed = false
    public var account: AccountPageModel?
    public var problems: ProblemsPageModel?
    public var diagnostic: DiagnosticPageModel?
    public var error: ErrorPageModel?
    /// The app's screens.
    public var destinations: DestinationListModel?
    public var destination: DestinationPageModel?
    public var addDestination: DestinationFormModel?
    public var newTrip: NewTripFormModel?
    /// The tile server a page's map draws from, when the server has one.
    public var tiles: TilesModel?
    public var detour: DetourPageModel?
    public var confirm: ConfirmModel?
    /// The form token of a confirmation's form.
    public var formField = ""
    public var formToken = ""

    /// A page titled `title`, with `chrome` after its `<body>` tag; its body is set after.
    public init(title: String, chrome: ChromeModel = ChromeModel(), hasBack: Bool) {
        self.title = title
        self.chrome = chrome
        self.hasBack = hasBack
    }

    /// Whether the page has a map: it then loads Leaflet and the app's script from the server,
    /// and its Content-Security-Policy allows scripts, styles and requests from the server and
    /// images from it and from the tile server, when one is configured (``tiles``).
    public var hasMap: Bool {
        if addDestination != nil || destination != nil { return true }
        // A detour's page has a map on each side still to be filled in, for those who may.
        guard let detour, detour.canEdit else { return false }
        return detour.panes.contains { $0.isEditing }
    }

    /// Whether the page holds forms, whose rules its style then has.
    public var hasForms: Bool {
        login != nil || register != nil || closed || account != nil || addDestination != nil || newTrip != nil
            || detour != nil || confirm != nil
    }
}

/// A tile server for a page's map: its URL template, its credit, and the source the page's
/// Content-Security-Policy allows its images from.
public struct TilesModel: Sendable {
    public var template: String
    public var attribution: String
    public var source: String

    public init(template: String, attribution: String, source: String) {
        self.template = template
        self.attribution = attribution
        self.source = source
    }
}

/// What the server puts after a page's `<body>` tag: the account bar when someone is signed in,
/// the owner's share panel on a preview or the trips shared with the account on the index, and
/// a preview's links.
public struct ChromeModel: Sendable {
    public var bar: AccountBarModel?
    public var share: SharePanelModel?
    public var shared: [SharedTripModel] = []
    public var preview: PreviewBarModel?

    public init(
        bar: AccountBarModel? = nil, share: SharePanelModel? = nil, shared: [SharedTripModel] = [],
        preview: PreviewBarModel? = nil
    ) {
        self.bar = bar
        self.share = share
        self.shared = shared
        self.preview = preview
    }

    public var hasShared: Bool { !shared.isEmpty }
    /// Whether there is anything to put in.
    public var isEmpty: Bool { bar == nil && share == nil && shared.isEmpty && preview == nil }
}

/// Who is signed in, and the form that logs out with its form token.
public struct AccountBarModel: Sendable {
    public var email: String
    public var formField: String
    public var formToken: String

    public init(email: String, formField: String, formToken: String) {
        self.email = email
        self.formField = formField
        self.formToken = formToken
    }
}

/// The owner's panel on a trip's preview: its members, each with a button that stops sharing,
/// and the form that shares it (with the address typed and the reason, when a share was refused).
public struct SharePanelModel: Sendable {
    /// Where the forms post: `/trips/NAME/members`.
    public var action: String
    public var members: [ShareMemberModel]
    public var formField: String
    public var formToken: String
    public var typed = ""
    public var problem = ""

    public init(action: String, members: [ShareMemberModel], formField: String, formToken: String) {
        self.action = action
        self.members = members
        self.formField = formField
        self.formToken = formToken
    }

    public var hasProblem: Bool { !problem.isEmpty }
}

/// A member of a shared trip: an address and a role.
public struct ShareMemberModel: Sendable {
    public var email: String
    public var role: String

    public init(email: String, role: String) {
        self.email = email
        self.role = role
    }
}

/// A trip shared with the account, as its index lists it.
public struct SharedTripModel: Sendable {
    public var href: String
    public var name: String
    public var owner: String
    public var role: String

    public init(href: String, name: String, owner: String, role: String) {
        self.href = href
        self.name = name
        self.owner = owner
        self.role = role
    }
}

/// The links a preview opens with: back to the list, and each format to download.
public struct PreviewBarModel: Sendable {
    public var downloads: [IndexLinkModel]

    public init(downloads: [(label: String, href: String)]) {
        self.downloads = downloads.map { IndexLinkModel(label: $0.label, href: $0.href) }
    }
}

/// A labelled input of a form, with the problem the server found in it.
public struct FormFieldModel: Sendable {
    public var name: String
    public var label: String
    public var type: String
    public var value: String
    public var autocomplete: String
    public var problem: String
    /// Whether the field may be left empty.
    public var optional = false
    /// A hint below the label: the form a value is written in.
    public var hint = ""

    public init(
        _ name: String, label: String, type: String, value: String = "", autocomplete: String = "",
        problem: String? = nil
    ) {
        self.name = name
        self.label = label
        self.type = type
        self.value = value
        self.autocomplete = autocomplete
        self.problem = problem ?? ""
    }

    public var hasAutocomplete: Bool { !autocomplete.isEmpty }
    public var hasProblem: Bool { !problem.isEmpty }
    public var hasHint: Bool { !hint.isEmpty }
}

/// The login form.
public struct LoginPageModel: Sendable {
    public var problem: String
    public var fields: [FormFieldModel]
    /// Whether the page links to registration (not on a server whose registration is closed).
    public var canRegister: Bool

    public init(problem: String?, fields: [FormFieldModel], canRegister: Bool) {
        self.problem = problem ?? ""
        self.fields = fields
        self.canRegister = canRegister
    }

    public var hasProblem: Bool { !problem.isEmpty }
}

/// The registration form.
public struct RegisterPageModel: Sendable {
    public var fields: [FormFieldModel]

    public init(fields: [FormFieldModel]) {
        self.fields = fields
    }
}

/// One of an account's sessions.
public struct SessionRowModel: Sendable {
    public var began: String
    public var seen: String
    public var client: String
    /// The session the page is seen in, which the page does not offer to end.
    public var isThis: Bool
    public var handle: String

    public init(began: String, seen: String, client: String, isThis: Bool, handle: String) {
        self.began = began
        self.seen = seen
        self.client = client
        self.isThis = isThis
        self.handle = handle
    }
}

/// One of an account's API tokens.
public struct TokenRowModel: Sendable {
    public var name: String
    public var scope: String
    public var made: String
    public var expires: String
    public var used: String
    public var id: String

    public init(name: String, scope: String, made: String, expires: String, used: String, id: String) {
        self.name = name
        self.scope = scope
        self.made = made
        self.expires = expires
        self.used = used
        self.id = id
    }
}

/// The account's own page: its password, sessions, API tokens and invitations.
public struct AccountPageModel: Sendable {
    public var notice: String
    public var email: String
    public var formField: String
    public var formToken: String
    public var passwordFields: [FormFieldModel]
    public var sessions: [SessionRowModel]
    public var tokens: [TokenRowModel]
    public var tokenName: FormFieldModel
    public var daysProblem: String
    /// Whether the server's registration needs invitations, which the page then makes.
    public var invites: Bool

    public init(
        notice: String?, email: String, formField: String, formToken: String, passwordFields: [FormFieldModel],
        sessions: [SessionRowModel], tokens: [TokenRowModel], tokenName: FormFieldModel, daysProblem: String?,
        invites: Bool
    ) {
        self.notice = notice ?? ""
        self.email = email
        self.formField = formField
        self.formToken = formToken
        self.passwordFields = passwordFields
        self.sessions = sessions
        self.tokens = tokens
        self.tokenName = tokenName
        self.daysProblem = daysProblem ?? ""
        self.invites = invites
    }

    public var hasNotice: Bool { !notice.isEmpty }
    public var hasDaysProblem: Bool { !daysProblem.isEmpty }
}

/// A trip's problems in place of its preview.
public struct ProblemsPageModel: Sendable {
    public var heading: String
    public var summary: String
    public var rows: [ProblemRowModel]

    public init(heading: String, summary: String, rows: [ProblemRowModel]) {
        self.heading = heading
        self.summary = summary
        self.rows = rows
    }
}

/// One diagnostic on a problems page, its code linked to its documentation.
public struct ProblemRowModel: Sendable {
    public var severity: String
    public var place: String
    public var code: String
    public var href: String
    public var message: String

    public init(severity: String, place: String, code: String, href: String, message: String) {
        self.severity = severity
        self.place = place
        self.code = code
        self.href = href
        self.message = message
    }
}

/// The live preview's script (`reload.html.mustache`), made by ``ServerPages/reloadScript(nonce:version:events:)``.
struct ReloadScriptModel: Sendable {
    /// The nonce the page's policy allows the script by.
    var nonce: String
    /// The version the page was made from, as a JSON string safe inside a `<script>` element.
    var version: String
    /// The address of the trip's event stream, as such a JSON string.
    var events: String
}

/// A section of the diagnostics' documentation as a page.
public struct DiagnosticPageModel: Sendable {
    /// The diagnostic's code, its heading.
    public var code: String
    public var blocks: [DocBlockModel]

    public init(code: String, blocks: [DocBlockModel]) {
        self.code = code
        self.blocks = blocks
    }
}

/// A paragraph, a list, a table or a block of code of the documentation: one of them.
public struct DocBlockModel: Sendable, Equatable {
    public var spans: [DocSpanModel] = []
    public var items: [DocLineModel] = []
    public var header: [DocLineModel] = []
    public var rows: [DocRowModel] = []
    /// The code of a block of code; `nil` for the other kinds.
    public var code: String?

    public var isParagraph: Bool { !spans.isEmpty }
    public var isList: Bool { !items.isEmpty }
    public var isTable: Bool { !header.isEmpty }
    public var isCode: Bool { code != nil }

    public static func paragraph(_ spans: [DocSpanModel]) -> DocBlockModel { DocBlockModel(spans: spans) }
    public static func list(_ items: [DocLineModel]) -> DocBlockModel { DocBlockModel(items: items) }
    public static func table(header: [DocLineModel], rows: [DocRowModel]) -> DocBlockModel {
        DocBlockModel(header: header, rows: rows)
    }
    public static func code(_ code: String) -> DocBlockModel { DocBlockModel(code: code) }
}

/// A line of the documentation: a list's item, a table's cell.
public struct DocLineModel: Sendable, Equatable {
    public var spans: [DocSpanModel]

    public init(_ spans: [DocSpanModel]) {
        self.spans = spans
    }
}

/// A row of a table of the documentation.
public struct DocRowModel: Sendable, Equatable {
    public var cells: [DocLineModel]

    public init(_ cells: [DocLineModel]) {
        self.cells = cells
    }
}

/// A run of a line of the documentation, as its template shows it: plain, code or bold.
public struct DocSpanModel: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case plain, code, bold
    }

    public var text: String
    public var kind: Kind

    public init(_ text: String, _ kind: Kind = .plain) {
        self.text = text
        self.kind = kind
    }

    public var isPlain: Bool { kind == .plain }
    public var isCode: Bool { kind == .code }
    public var isBold: Bool { kind == .bold }
}

/// A request the server refused, as a page: what a browser gets where an API client gets JSON.
public struct ErrorPageModel: Sendable {
    /// The status's reason: `Not Found`.
    public var heading: String
    public var message: String
    /// The problem's stable code, as the API names it.
    public var code: String

    public init(heading: String, message: String, code: String) {
        self.heading = heading
        self.message = message
        self.code = code
    }
}

/// The server's HTML, from the built-in templates compiled to Swift.
public enum ServerPages {
    /// A page of the server's own, as UTF-8.
    public static func page(_ model: ServerPageModel) -> [UInt8] {
        var output = TemplateOutput()
        _ = CompiledTemplates.render(model, template: TemplateRoots.serverPage, into: &output)
        return output.bytes
    }

    /// The live preview's script, as UTF-8, for the policy's `nonce`; `version` and `events` (the
    /// stream's address) are JSON strings made safe inside a `<script>` element.
    public static func reloadScript(nonce: String, version: String, events: String) -> [UInt8] {
        var output = TemplateOutput()
        let model = ReloadScriptModel(nonce: nonce, version: version, events: events)
        _ = CompiledTemplates.render(model, template: TemplateRoots.reloadScript, into: &output)
        return output.bytes
    }

    /// What goes right after `<body>` on a page the server did not make itself (a report, the
    /// index), as UTF-8; empty when there is nothing to put in.
    public static func chrome(_ model: ChromeModel) -> [UInt8] {
        var output = TemplateOutput()
        _ = CompiledTemplates.render(model, template: TemplateRoots.chrome, into: &output)
        return output.bytes
    }
}

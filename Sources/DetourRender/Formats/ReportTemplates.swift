import DetourCore
import DetourMustacheSyntax
import DetourTemplateSchema
import DetourTemplates
import Foundation
import Mustache

/// The HTML and Markdown templates, ready to render.
///
/// The templates built into the binary come compiled to Swift at build time (``builtIn(_:)``):
/// a report does not pay the template engine's lookups, nor parsing at start-up. Templates from
/// elsewhere (the CLI's `--templates DIR`, ``init(files:)``) go through the template engine,
/// swift-mustache; the golden tests render every sample both ways and require the same bytes.
public struct ReportTemplates: Sendable {
    /// Why templates could not be used.
    public enum LoadError: Error, Sendable, Equatable {
        /// A template file the reports need is not there.
        case missing(String)
        /// A template does not parse.
        case invalid(name: String, line: Int, column: Int, reason: String)

        /// The template file it is about.
        public var file: String {
            switch self {
            case .missing(let name), .invalid(let name, _, _, _): return name
            }
        }

        /// The problem as a diagnostic, for the one printer that reports problems.
        public var diagnostic: Diagnostic {
            switch self {
            case .missing:
                return Diagnostic(.templateMissing, "template not found")
            case .invalid(_, let line, let column, let reason):
                return Diagnostic(
                    .templateInvalid,
                    at: SourcePosition(line: line > 0 ? line : nil, column: column > 0 ? column : nil),
                    reason)
            }
        }
    }

    /// The HTML template's file name.
    public static let htmlName = TemplateRoots.reportHTML
    /// The Markdown template's file name.
    public static let markdownName = TemplateRoots.reportMarkdown
    /// Every template file a report needs.
    public static let requiredNames = [htmlName, markdownName]
    /// The HTML template of a batch run's index.
    public static let indexHTMLName = TemplateRoots.indexHTML
    /// The Markdown template of a batch run's index.
    public static let indexMarkdownName = TemplateRoots.indexMarkdown
    /// The index templates, which a `--templates` folder may leave out: the built-in ones serve.
    public static let indexNames = [indexHTMLName, indexMarkdownName]

    /// The templates built into the binary, through the template engine and checked as
    /// ``init(files:)`` checks templates: what the compiled templates are tested against.
    public static let bundled: Result<ReportTemplates, LoadError> = {
        do throws(LoadError) {
            return .success(try ReportTemplates(files: BundledTemplates.files))
        } catch {
            return .failure(error)
        }
    }()

    /// The built-in templates, compiled to Swift at build time; `names` are those a run needs,
    /// each of which must be among them.
    ///
    /// Nothing is parsed at run time. The checks ``init(files:)`` runs would find nothing: the
    /// tests run them on every built-in template, and the template compiler refuses a name the
    /// report model lacks.
    public static func builtIn(_ names: [String]) throws(LoadError) -> ReportTemplates {
        for name in names where !CompiledTemplates.names.contains(name) {
            throw .missing(name)
        }
        return compiled
    }

    /// Every built-in template, compiled to Swift at build time.
    public static let compiled = ReportTemplates(engine: .compiled, warnings: [])

    /// Parses one template, a parse error becoming a ``LoadError`` with its line and column.
    private static func compile(_ text: String, named name: String) throws(LoadError) -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            throw .invalid(
                name: name, line: error.context.lineNumber, column: error.context.columnNumber,
                reason: ReportTemplates.explain(error.error))
        } catch {
            throw .invalid(name: name, line: 0, column: 0, reason: "\(error)")
        }
    }

    private init(engine: Engine, warnings: [TemplateWarning]) {
        self.engine = engine
        self.warnings = warnings
    }

    /// The built-in templates with `files` put in their place, checked as ``init(files:)``
    /// checks them: what a `--templates` folder that holds only some of the files gives.
    public static func bundled(replacing files: [String: String]) throws(LoadError) -> ReportTemplates {
        try ReportTemplates(files: BundledTemplates.files.merging(files) { $1 })
    }

    /// What renders: the compiled built-in templates, or the template engine.
    private enum Engine: Sendable {
        case compiled
        case interpreted(MustacheLibrary)
    }

    private let engine: Engine

    /// Whether these are the built-in templates compiled to Swift.
    public var isCompiled: Bool {
        if case .compiled = engine { return true }
        return false
    }

    /// What the templates do that a report should not rely on: keys the report model lacks, user text that would not be
    /// escaped.
    ///
    /// Empty for the built-in templates.
    public let warnings: [TemplateWarning]

    /// Compiles templates from file names and their text.
    ///
    /// Every file is registered under its name, so templates can include each other as partials
    /// (`{{> name}}`). Templates that would exhaust the stack while rendering (partials that
    /// include each other more than 32 levels deep, sections nested more than 100 levels deep)
    /// are refused before the template engine parses them.
    public init(files given: [String: String]) throws(LoadError) {
        ContentTypes.register()
        for name in ReportTemplates.requiredNames where given[name] == nil {
            throw .missing(name)
        }
        var files = given
        for name in ReportTemplates.indexNames where files[name] == nil {
            files[name] = BundledTemplates.files[name]
        }
        var library = MustacheLibrary()
        var parsed: [String: [MustacheNode]] = [:]
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            // The one reader of templates first, whose words say what to fix: the engine parses
            // recursively, so a template nested too deeply must be refused before it sees it.
            do throws(MustacheSyntaxError) {
                parsed[name] = try MustacheParser.parse(text)
            } catch {
                throw .invalid(name: name, line: error.line, column: error.column, reason: error.reason)
            }
            library.register(try ReportTemplates.compile(text, named: name), named: name)
        }
        var check = TemplateCheck(templates: parsed)
        try check.checkDynamicPartials()
        try check.checkIncludes()
        for name in ReportTemplates.requiredNames + ReportTemplates.indexNames {
            guard let root = TemplateRoots.builtIn[name] else { continue }
            check.walk(root: name, contentType: root.contentType, scope: root.scope)
        }
        self.engine = .interpreted(library)
        self.warnings = check.warnings
    }

    func render(_ model: ReportModel, template name: String, to sink: @escaping ReportSink) {
        switch engine {
        case .compiled:
            var output = TemplateOutput(sink: sink)
            _ = CompiledTemplates.render(model, template: name, into: &output)
            output.flush()
        case .interpreted(let library):
            // Every name asked for is registered: a report needs its template to load at all.
            if let text = library.render(model, withTemplate: name) { sink(Array(text.utf8)) }
        }
    }

    /// The index of a batch run as HTML, Markdown or JSON (``TripIndex/json()``).
    public func renderIndex(_ index: TripIndex, as format: ReportFormat) -> String {
        let name: String
        switch format {
        case .html: name = ReportTemplates.indexHTMLName
        case .markdown: name = ReportTemplates.indexMarkdownName
        case .json: return index.json()
        }
        switch engine {
        case .compiled:
            var output = TemplateOutput()
            _ = CompiledTemplates.render(IndexModel(index), template: name, into: &output)
            return String(decoding: output.bytes, as: UTF8.self)
        case .interpreted(let library):
            guard let text = library.render(IndexModel(index), withTemplate: name) else { return "" }
            return text
        }
    }
}

extension ReportTemplates {
    /// The template engine's name for a parse error, as a sentence that says what to fix.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "\(error)" }
        switch error {
        case .sectionCloseNameIncorrect: return "a closing tag {{/…}} does not match the section it closes"
        case .unfinishedName: return "a tag is not finished: {{ or {{{ needs its matching }} or }}}"
        case .expectedSectionEnd: return "a section is not closed: each {{#name}} or {{^name}} needs a {{/name}}"
        case .invalidSetDelimiter: return "a {{=<% %>=}} delimiter change is badly written"
        case .transformAppliedToInheritanceSection: return "a transform cannot be applied to an inherited section"
        case .illegalTokenInsideInheritSection: return "only {{$block}} sections may stand inside {{<partial}}"
        case .textInsideInheritSection: return "text may not stand inside {{<partial}}, only {{$block}} sections"
        case .invalidConfigVariableSyntax: return "a {{% … }} pragma is badly written"
        case .unrecognisedConfigVariable: return "a {{% … }} pragma names a setting the engine does not know"
        }
    }
}

/// The escapers, registered with the template engine under the names templates declare.
enum ContentTypes {
    struct HTML: MustacheContentType {
        func escapeText(_ text: String) -> String { Escaping.html(text) }
    }

    struct Markdown: MustacheContentType {
        func escapeText(_ text: String) -> String { Escaping.markdown(text) }
    }

    private static let registration: Void = {
        MustacheContentTypes.register(HTML(), named: "DETOUR_HTML")
        MustacheContentTypes.register(Markdown(), named: "DETOUR_MARKDOWN")
    }()

    /// Registers both content types, once per process.
    static func register() { registration }
}

import DetourCore
import DetourMustacheSyntax
import DetourTemplateSchema

/// A problem in a template that does not stop the report, at its file, line and column.
public struct TemplateWarning: Sendable, Hashable {
    /// What kind of warning: user text left raw, or a key the report model lacks.
    public var code: DiagnosticCode
    /// The template's file name.
    public var file: String
    /// 1-based line of the tag.
    public var line: Int
    /// 1-based column of the tag, in Unicode scalars.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// The warning as a diagnostic, for the one printer that reports problems.
    public var diagnostic: Diagnostic {
        Diagnostic(code, at: SourcePosition(line: line, column: column), message)
    }
}

/// Checks compiled templates before any report is rendered: bounds that keep rendering off the
/// end of the stack (errors), and keys and escaping (warnings).
struct TemplateCheck {
    /// The deepest chain of partials including partials.
    static let maxIncludeDepth = 32

    var templates: [String: [MustacheNode]]
    var warnings: [TemplateWarning] = []
    private var seen: Set<TemplateWarning> = []
    private var budget = 200_000

    init(templates: [String: [MustacheNode]]) {
        self.templates = templates
    }

    /// A partial or a parent: a tag that renders another template here.
    private struct Include {
        var name: MustacheName
        /// The sections, parents and blocks around it in its template.
        var depth: Int
    }

    /// The includes of a template, in order, with their depth.
    private static func includes(in nodes: [MustacheNode], depth: Int = 0) -> [Include] {
        var found: [Include] = []
        for node in nodes {
            switch node {
            case .partial(let name, dynamic: false): found.append(Include(name: name, depth: depth))
            case .parent(let name, let body):
                found.append(Include(name: name, depth: depth))
                found += includes(in: body, depth: depth + 1)
            case .section(_, _, let body), .block(_, let body): found += includes(in: body, depth: depth + 1)
            case .text, .variable, .contentType, .partial, .delimiters: break
            }
        }
        return found
    }

    /// The deepest nesting of sections, parents and blocks in `nodes` alone.
    private static func nesting(of nodes: [MustacheNode]) -> Int {
        nodes.reduce(0) { deepest, node in
            switch node {
            case .section(_, _, let body), .parent(_, let body), .block(_, let body):
                return max(deepest, 1 + nesting(of: body))
            case .text, .variable, .contentType, .partial, .delimiters:
                return deepest
            }
        }
    }

    /// Refuses partials that include each other too deeply, and sections nested too deeply
    /// across partials.
    func checkIncludes() throws(ReportTemplates.LoadError) {
        // A partial that names no template would render nothing, without a word.
        for (name, nodes) in templates.sorted(by: { $0.key < $1.key }) {
            for include in Self.includes(in: nodes) where templates[include.name.name] == nil {
                let tag = include.name
                throw .invalid(
                    name: name, line: tag.line, column: tag.column,
                    reason:
                        "no template \(tag.name).mustache for {{> \(tag.name)}} in the folder: a partial names a file there, without .mustache"
                )
            }
        }
        var heights: [String: Int] = [:]
        var nesting: [String: Int] = [:]
        for name in templates.keys.sorted() {
            _ = try height(of: name, path: [name], memo: &heights)
        }
        for name in templates.keys.sorted() {
            _ = try deepest(in: name, memo: &nesting)
        }
    }

    /// How many partial hops the longest include chain from `name` takes.
    private func height(of name: String, path: [String], memo: inout [String: Int]) throws(ReportTemplates.LoadError)
        -> Int
    {
        if let known = memo[name] { return known }
        guard let nodes = templates[name] else { return 0 }
        var height = 0
        for include in Self.includes(in: nodes) where templates[include.name.name] != nil {
            let tag = include.name
            let refusal = ReportTemplates.LoadError.invalid(
                name: name, line: tag.line, column: tag.column,
                reason: "partials include each other deeper than \(Self.maxIncludeDepth) levels ("
                    + (path + [tag.name]).joined(separator: " > ") + (path.contains(tag.name) ? " > …)" : ")"))
            if path.contains(tag.name) || path.count > Self.maxIncludeDepth { throw refusal }
            height = max(height, try self.height(of: tag.name, path: path + [tag.name], memo: &memo) + 1)
            if path.count - 1 + height > Self.maxIncludeDepth { throw refusal }
        }
        memo[name] = height
        return height
    }

    /// The deepest section nesting reached from `name`, through its partials (acyclic by now).
    private func deepest(in name: String, memo: inout [String: Int]) throws(ReportTemplates.LoadError) -> Int {
        if let known = memo[name] { return known }
        guard let nodes = templates[name] else { return 0 }
        var deepest = Self.nesting(of: nodes)
        for include in Self.includes(in: nodes) where templates[include.name.name] != nil {
            let tag = include.name
            let total = include.depth + 1 + (try self.deepest(in: tag.name, memo: &memo))
            if total > MustacheParser.maxNesting {
                throw .invalid(
                    name: name, line: tag.line, column: tag.column,
                    reason:
                        "sections nest deeper than \(MustacheParser.maxNesting) levels with \(tag.name) included here"
                )
            }
            deepest = max(deepest, total)
        }
        memo[name] = deepest
        return deepest
    }

    /// Refuses a partial whose name the trip's data would choose.
    func checkDynamicPartials() throws(ReportTemplates.LoadError) {
        for (name, nodes) in templates.sorted(by: { $0.key < $1.key }) {
            var pending = nodes
            while let node = pending.popLast() {
                switch node {
                case .partial(let tag, dynamic: true):
                    throw .invalid(
                        name: name, line: tag.line, column: tag.column,
                        reason:
                            "a partial named by a value ({{>*name}}) is not supported: the trip's text would choose the template"
                    )
                case .section(_, _, let body), .parent(_, let body), .block(_, let body):
                    pending += body
                case .text, .variable, .contentType, .partial, .delimiters:
                    break
                }
            }
        }
    }

    // MARK: - Keys and escaping

    private struct Frame {
        var value: TemplateValue
        var inSequence: Bool
    }

    /// Walks the template `root` from the report model, as it will render, warning about keys the
    /// model lacks and user text that would not be escaped with `contentType`.
    mutating func walk(root: String, contentType: String, scope: TemplateScope) {
        walk(file: root, frames: [Frame(value: .object(scope), inSequence: false)], contentType: contentType)
    }

    private mutating func walk(file: String, frames: [Frame], contentType expected: String) {
        guard let nodes = templates[file] else { return }
        var current: String? = nil
        walk(nodes, file: file, frames: frames, expected: expected, current: &current)
    }

    private mutating func walk(
        _ nodes: [MustacheNode], file: String, frames: [Frame], expected: String, current: inout String?
    ) {
        for node in nodes {
            budget -= 1
            guard budget > 0 else { return }
            switch node {
            case .contentType(let type, let tag):
                current = type
                if type != expected {
                    warn(
                        .templateUnescaped, file, tag,
                        "CONTENT_TYPE \(type) instead of \(expected) does not escape text for this report: user text would reach the page raw"
                    )
                }
            case .variable(let tag, let escaped):
                guard let value = resolve(tag, in: frames) else {
                    warn(
                        .templateUnknownKey, file, tag,
                        "'\(tag.written)' is not a value of the report here: it renders as nothing")
                    continue
                }
                guard value.holdsUserText else { continue }
                if !escaped {
                    warn(
                        .templateUnescaped, file, tag,
                        "'\(tag.written)' is written unescaped: user text would reach the page raw")
                } else if current == nil {
                    warn(
                        .templateUnescaped, file, tag,
                        "no {{% CONTENT_TYPE: \(expected)}} before this: user text would reach the page raw")
                }
            case .section(let tag, let inverted, let body):
                guard let value = resolve(tag, in: frames) else {
                    warn(
                        .templateUnknownKey, file, tag,
                        "'\(tag.written)' is not a value of the report here: the section never renders")
                    continue
                }
                var inner = frames
                if !inverted {
                    switch value {
                    case .flag, .position: break
                    case .list(let element): inner.append(Frame(value: element, inSequence: true))
                    default: inner.append(Frame(value: value, inSequence: false))
                    }
                }
                var scoped = current
                walk(body, file: file, frames: inner, expected: expected, current: &scoped)
            case .block(_, let body):
                var scoped = current
                walk(body, file: file, frames: frames, expected: expected, current: &scoped)
            case .partial(let tag, dynamic: false):
                if templates[tag.name] != nil { walk(file: tag.name, frames: frames, contentType: expected) }
            case .parent(let tag, let body):
                if templates[tag.name] != nil { walk(file: tag.name, frames: frames, contentType: expected) }
                var scoped = current
                walk(body, file: file, frames: frames, expected: expected, current: &scoped)
            case .text, .partial, .delimiters:
                break
            }
        }
    }

    private mutating func warn(_ code: DiagnosticCode, _ file: String, _ tag: MustacheName, _ message: String) {
        let warning = TemplateWarning(code: code, file: file, line: tag.line, column: tag.column, message: message)
        if seen.insert(warning).inserted { warnings.append(warning) }
    }

    /// What a tag's key finds, as swift-mustache looks it up: `.` is the innermost value, a
    /// leading `.` looks only there, otherwise the first part is looked for from the innermost
    /// context outwards; transforms then apply innermost first.
    private func resolve(_ tag: MustacheName, in frames: [Frame]) -> TemplateValue? {
        guard let top = frames.last else { return nil }
        var value: TemplateValue
        if tag.name == "." {
            value = top.value
        } else if tag.name.isEmpty {
            guard !tag.transforms.isEmpty, top.inSequence else { return nil }
            value = .position
        } else {
            let parts = tag.name.split(separator: ".").map(String.init)
            guard let first = parts.first else { return nil }
            let searched = tag.name.hasPrefix(".") ? [top] : frames.reversed()
            guard let found = searched.lazy.compactMap({ $0.value.child(first) }).first else { return nil }
            value = found
            for part in parts.dropFirst() {
                guard let child = value.child(part) else { return nil }
                value = child
            }
        }
        for transform in tag.transforms.reversed() {
            guard let transformed = value.transformed(transform) else { return nil }
            value = transformed
        }
        return value
    }
}

extension TemplateValue {
    func child(_ key: String) -> TemplateValue? {
        guard case .object(let scope) = self else { return nil }
        return scope.keys[key]
    }

    /// The result of one of swift-mustache's transforms (`Transform.swift`), or `nil` when the
    /// value has no such transform (it then renders as nothing).
    func transformed(_ name: String) -> TemplateValue? {
        switch (self, name) {
        case (.text, "empty"), (.list, "empty"), (.number, "equalzero"), (.number, "even"), (.number, "odd"),
            (.position, "first"), (.position, "last"), (.position, "even"), (.position, "odd"):
            return .flag
        case (.text, "capitalized"), (.text, "lowercased"), (.text, "uppercased"), (.text, "reversed"),
            (.list, "reversed"), (.list(.text), "sorted"), (.number, "plusone"), (.number, "minusone"):
            return self
        case (.list, "count"), (.position, "index"):
            return .number
        case (.list(let element), "first"), (.list(let element), "last"):
            return element
        default:
            return nil
        }
    }
}
